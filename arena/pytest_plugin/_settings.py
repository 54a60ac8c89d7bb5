"""What ``pytest --arena`` runs: each setting from its flag, else its ini key, else
``arena.yaml``, else the default ``arena run`` uses."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from arena.errors import InputError

if TYPE_CHECKING:
    import pytest

    from arena.project._config import GateConfig

SETTINGS = {
    "dataset": "golden dataset JSON (default: arena.yaml's run.dataset, else the shipped one)",
    "variant": "the variant run: a name looked up in run.variants_dir, or a variant YAML "
    "(default: arena.yaml's candidate)",
    "tier": "critical, standard, pending or all (default: arena.yaml's run.tier, else critical)",
    "repeats": "runs of each case; a case passes only when every run does, pass^k "
    "(default: arena.yaml's run.repeats, else 1)",
    "db": "database URL or SQLite path (default: arena.yaml's db, else $ARENA_DB_URL, "
    "else arena.db)",
    "baseline": "stored baseline name or baseline JSON for the session verdict (default: "
    "arena.yaml's baseline, else the stored 'baseline' when there is one)",
    "config": "the arena.yaml to read (default: the nearest one up from the rootdir)",
}
"""Each setting: ``--arena-NAME`` and the ini key ``arena_NAME``, with its help text."""


@dataclass(frozen=True)
class Settings:
    """The resolved settings of one session."""

    dataset: str
    variant: str
    tier: str
    repeats: int
    db: str
    baseline: str | None
    config: GateConfig


def _raw(config: pytest.Config, name: str) -> str | None:
    value = config.getoption(f"arena_{name}")
    if value is None:
        value = config.getini(f"arena_{name}") or None
    return None if value is None else str(value)


def _config(config: pytest.Config) -> GateConfig:
    from arena.project._config import GateConfig, find_config, load_config

    given = _raw(config, "config")
    if given and not Path(given).is_file():
        raise InputError("no such arena.yaml", file=given, field="--arena-config")
    path = Path(given) if given else find_config(config.rootpath)
    return load_config(path) if path else GateConfig()


def _repeats(text: str | None, config: GateConfig) -> int:
    if text is None:
        return config.run.repeats
    if not text.isdigit() or int(text) < 1:
        raise InputError(f"must be a whole number of at least 1, got {text!r}", field="repeats")
    return int(text)


def _url(db: str) -> str:
    """``db``, a plain SQLite path (``arena.db``) made an absolute ``sqlite:///`` URL."""
    from arena.project._defaults import SQLITE_SUFFIXES

    if "://" not in db and db.endswith(SQLITE_SUFFIXES):
        return "sqlite:///" + str(Path(db).expanduser().absolute())
    return db


def resolve(config: pytest.Config) -> Settings:
    """The settings of this session (InputError naming the flag, key or file of a bad one)."""
    from arena.paths import data_dir
    from arena.project._defaults import project_defaults

    project = _config(config)
    defaults = project_defaults(project)
    variant = _raw(config, "variant") or project.candidate
    if not variant:
        raise InputError(
            "no variant to run: give --arena-variant (a name or a variant YAML), the ini key "
            "arena_variant, or `candidate:` in arena.yaml",
            field="--arena-variant",
        )
    dataset = _raw(config, "dataset") or defaults.dataset
    baseline = _raw(config, "baseline") or project.baseline
    if baseline and Path(project.path(baseline)).is_file() and not _raw(config, "baseline"):
        baseline = project.path(baseline)
    return Settings(
        dataset=dataset or str(data_dir() / "golden" / "research_agent.json"),
        variant=variant,
        tier=_raw(config, "tier") or project.run.tier,
        repeats=_repeats(_raw(config, "repeats"), project),
        db=_url(_raw(config, "db") or defaults.db or os.environ.get("ARENA_DB_URL") or "arena.db"),
        baseline=baseline,
        config=project,
    )

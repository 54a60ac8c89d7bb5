"""What ``arena init-ci`` reads in a repository so the workflows fit it.

:func:`scan_project` finds the repository's own golden datasets and variants (its
``arena.yaml``'s ``run.dataset`` and ``run.variants_dir`` when it has one, else
``golden/*.json`` or ``data/golden/*.json`` and ``variants/`` or ``data/variants/``), then reads
each variant file without importing anything: the package of its factory (``agent:
pkg.module:build`` -> the folder ``pkg/`` or ``src/pkg/`` in the repository) and every
project package or module it imports (``import`` statements read, as the variant's version
reads them: a top-level ``policy.py`` -> ``policy.py``), the prompt files it names, and the
environment variables holding the API keys of its models (``model`` and
``roles``, ``api_key_env`` or the provider's default such as ``OPENAI_API_KEY``) and of a
hosted judge. The pull-request trigger paths are every one of those files plus ``arena.yaml``,
the baselines, the workflows and the project's own packaging files.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import InputError
from arena.project._config import CONFIG_NAME, GateConfig, load_config

SUFFIXES = (".yaml", ".yml")
DATASET_GLOBS = ("golden/*.json", "data/golden/*.json")
VARIANT_DIRS = ("variants", "data/variants")
PACKAGING = ("pyproject.toml", "setup.py", "setup.cfg", "requirements*.txt")
ALWAYS = ("arena.yaml", "baselines/**", ".github/workflows/arena-*.yml")
SECRET_NAME = re.compile(r"^(?!GITHUB_)[A-Za-z_][A-Za-z0-9_]*$")
"""A name GitHub accepts for a repository secret."""


@dataclass
class ProjectScan:
    """What the repository holds, relative to its root."""

    datasets: list[str] = field(default_factory=list)
    variants_dir: str | None = None
    variant_names: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    secrets: list[str] = field(default_factory=list)
    has_config: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def dataset(self) -> str | None:
        """The dataset the gate runs: the first found."""
        return self.datasets[0] if self.datasets else None

    @property
    def candidate(self) -> str | None:
        """The variant the gate runs: ``baseline`` when one is so named, else the first."""
        if "baseline" in self.variant_names:
            return "baseline"
        return self.variant_names[0] if self.variant_names else None


def _relative(path: Path, root: Path) -> str | None:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def _variant_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES and p.is_file())


def _read(file: Path) -> dict[str, Any]:
    from arena.inputs.files import load_yaml
    from arena.variants.variant import MAX_VARIANT_BYTES

    raw = load_yaml(file, limit=MAX_VARIANT_BYTES)
    return raw if isinstance(raw, dict) else {}


def _models(raw: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The variant's model and each role's, a role inheriting the model's fields."""
    base = raw.get("model")
    if isinstance(base, dict):
        yield base
    roles = raw.get("roles")
    for role in roles.values() if isinstance(roles, dict) else ():
        if isinstance(role, dict):
            yield {**(base if isinstance(base, dict) else {}), **role}


def key_env(model: dict[str, Any]) -> str | None:
    """The environment variable holding the API key of a model config, or None."""
    from pydantic import ValidationError

    from arena.models._config import ModelConfig
    from arena.models.providers import PROVIDERS

    try:
        config = ModelConfig.model_validate(model)
        return PROVIDERS.lookup(config.provider).key_env(config)
    except (ValidationError, InputError, TypeError):
        return None


def package_path(agent: str, variant_file: Path, root: Path) -> str | None:
    """The trigger path of a factory's package in the repository (``pkg/**``), or None."""
    if ":" not in agent:
        return None
    top = agent.partition(":")[0].split(".")[0]
    folder = variant_file.resolve().parent
    places = [folder, *folder.parents]
    places = places[: places.index(root.resolve()) + 1] if root.resolve() in places else [root]
    for place in [*places, root / "src"]:
        for found, pattern in ((place / top, f"{top}/**"), (place / f"{top}.py", f"{top}.py")):
            if found.exists():
                where = _relative(found.parent, root)
                if where is not None:
                    return pattern if where == "." else f"{where}/{pattern}"
    return None


def code_paths(agent: str, variant_file: Path, root: Path) -> list[str]:
    """The trigger paths of every project file the variant's version hashes: its factory's
    package and the project-local packages and modules it imports (followed statically, as
    :func:`arena.factories.package_files` does), ``pkg/**`` or ``module.py``; the factory's
    package alone (:func:`package_path`) when its imports cannot be read."""
    from arena.factories import package_targets, project_roots

    if ":" not in agent:
        return []
    module = agent.partition(":")[0]
    saved = list(sys.path)
    # Found first in the repository (nothing is imported; sys.path is restored after).
    sys.path[:0] = [str(p) for p in (root, root / "src", *project_roots(variant_file))]
    try:
        targets = package_targets(module)
    except (InputError, ImportError, ValueError):
        targets = []
    finally:
        sys.path[:] = saved
    found = [_pattern(target, root) for target in targets]
    paths = [p for p in found if p is not None]
    fallback = package_path(agent, variant_file, root)
    return paths or ([fallback] if fallback else [])


def _pattern(target: Path, root: Path) -> str | None:
    """``rel/**`` for a package folder, ``rel`` for a module file; None outside ``root``."""
    where = _relative(target, root)
    if where is None:
        return None
    return f"{where}/**" if target.is_dir() else where


def _judge_file(config: GateConfig | None, root: Path) -> tuple[str | None, str | None]:
    """The judge's YAML file (a trigger path) and its key's environment variable."""
    judge = config.compare.judge if config is not None else None
    if not judge or judge == "none":
        return None, None
    if judge.endswith(SUFFIXES):
        path = Path(config.path(judge)) if config is not None else root / judge
        raw = _read(path) if path.is_file() else {}
        model = raw.get("model") if isinstance(raw.get("model"), dict) else None
        return _relative(path, root), key_env(model) if model else None
    return None, key_env({"spec": judge.partition("/")[0]})


def _locate(root: Path) -> tuple[GateConfig | None, list[str], str | None]:
    """arena.yaml (if any), the datasets and the variants folder, relative to ``root``."""
    config = load_config(root / CONFIG_NAME) if (root / CONFIG_NAME).is_file() else None
    if config is not None and (config.run.dataset or config.run.variants_dir):
        dataset = config.run.dataset and _relative(Path(config.path(config.run.dataset)), root)
        variants = config.run.variants_dir
        folder = variants and _relative(Path(config.path(variants)), root)
        return config, [dataset] if dataset else [], folder
    datasets = [p.relative_to(root).as_posix() for g in DATASET_GLOBS for p in sorted(root.glob(g))]
    folder = next((d for d in VARIANT_DIRS if _variant_files(root / d)), None)
    return config, datasets, folder


def scan_project(root: Path, fake_scripts: str | None = None) -> ProjectScan:
    """The repository's datasets, variants, trigger paths and API-key secrets (module
    docstring); ``fake_scripts``: a scripts file the variants play, a trigger path too."""
    config, datasets, folder = _locate(root)
    scan = ProjectScan(datasets=datasets, variants_dir=folder, has_config=config is not None)
    if config is not None and not config.run.dataset and datasets:
        scan.notes.append(
            f"{CONFIG_NAME} runs the shipped research dataset (run.dataset: null) though the "
            f"repository has {', '.join(datasets)}: set run.dataset"
        )
    paths: list[str] = [*ALWAYS, *datasets]
    secrets: list[str] = []
    if folder is not None:
        paths.append(f"{folder}/**")
    for file in _variant_files(root / folder) if folder else []:
        raw = _read(file)
        if isinstance(raw.get("name"), str):
            scan.variant_names.append(raw["name"])
        paths += code_paths(str(raw.get("agent", "")), file, root)
        prompt = raw.get("system_prompt_file")
        prompt_path = _relative(file.parent / prompt, root) if isinstance(prompt, str) else None
        paths += [prompt_path] if prompt_path else []
        secrets += [env for model in _models(raw) if (env := key_env(model))]
    judge_file, judge_key = _judge_file(config, root)
    paths += [p for p in (judge_file, fake_scripts and _relative(Path(fake_scripts), root)) if p]
    secrets += [judge_key] if judge_key else []
    paths += [p.name for pattern in PACKAGING for p in sorted(root.glob(pattern))]
    scan.paths = _covered(paths, folder)
    for name in dict.fromkeys(secrets):
        if SECRET_NAME.match(name):
            scan.secrets.append(name)
        else:
            scan.notes.append(f"{name} cannot be a GitHub secret's name: set it yourself")
    return scan


def _covered(paths: list[str], folder: str | None) -> list[str]:
    """Unique paths, leaving out files the variants folder's ``/**`` already covers."""
    inside = f"{folder}/" if folder else None
    kept = [p for p in paths if inside is None or not p.startswith(inside) or p == f"{folder}/**"]
    return list(dict.fromkeys(kept))


def fake_scripts_file() -> str | None:
    """The scripts file ``ARENA_FAKE_SCRIPTS`` names, if any."""
    return os.environ.get("ARENA_FAKE_SCRIPTS") or None

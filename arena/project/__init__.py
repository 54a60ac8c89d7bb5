"""The project: ``arena.yaml`` (what ``arena gate`` runs, its limits, and the database, dataset,
variants folder, models and judge every ``arena`` command takes from it when its own flag is
not given), and which variant ``--candidate`` / ``--baseline`` mean.

Public names load lazily (like :mod:`arena`), so reading the defaults loads no runner, judge
or database.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.project._config import GateConfig, find_config, load_config
    from arena.project._defaults import ProjectDefaults, project_defaults, read_project_defaults
    from arena.project._variant_lookup import resolve_variant, resolve_variants

_EXPORTS = {
    "GateConfig": "arena.project._config",
    "find_config": "arena.project._config",
    "load_config": "arena.project._config",
    "ProjectDefaults": "arena.project._defaults",
    "project_defaults": "arena.project._defaults",
    "read_project_defaults": "arena.project._defaults",
    "resolve_variant": "arena.project._variant_lookup",
    "resolve_variants": "arena.project._variant_lookup",
}

__all__ = [
    "GateConfig",
    "ProjectDefaults",
    "find_config",
    "load_config",
    "project_defaults",
    "read_project_defaults",
    "resolve_variant",
    "resolve_variants",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.project' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

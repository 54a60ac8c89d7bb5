"""After a task, record the project files its agent loaded beyond its version's static code
(:mod:`arena.factories._loaded`), where the agent ran: the local runner and every executor's
worker call :func:`record_loads` after storing the result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.factories._imports import project_roots
from arena.factories._loaded import loaded_files
from arena.variants.variant import ARCHITECTURES

if TYPE_CHECKING:
    from arena.storage import Store
    from arena.variants.variant import Variant


def record_loads(store: Store, variant: Variant) -> None:
    """Store, under the variant's version, the project modules this process holds that its
    code fingerprint does not name (nothing for the built-in agents, or when answers are read
    from a file or given by a person)."""
    version = variant.version
    if not version.code or variant.agent in ARCHITECTURES:  # no code of the team's runs
        return
    files = loaded_files(project_roots(variant.source_file), version.code)
    if files:
        store.record_loaded(version.hash, files)

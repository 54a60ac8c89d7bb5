"""Why a variant's results were or were not reused: its version against the stored ones."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena.storage import Store
    from arena.variants.variant import Variant


def changes_since_stored(store: Store, variant: Variant) -> list[str]:
    """What changed since the newest stored version of ``variant``'s name, one line per part
    ("agent code changed: shopbot/agent.py"); empty when this version is stored already;
    ``["first run of this variant"]`` when none is."""
    stored = [v for v in store.variants() if v.name == variant.name]
    if any(v.version_hash == variant.version_hash for v in stored):
        return []
    return variant.version.changes_since(stored[-1].version if stored else None)


def version_story(store: Store, name: str, version_hash: str) -> str:
    """One line on a stored version of ``name``: what changed since the version before it."""
    stored = [v for v in store.variants() if v.name == name]
    index = next((i for i, v in enumerate(stored) if v.version_hash == version_hash), None)
    if index is None:
        return f"version {version_hash} (not stored)"
    if index == 0:
        return f"version {version_hash}: the first stored version of {name}"
    previous = stored[index - 1]
    changes = stored[index].version.changes_since(previous.version)
    return f"version {version_hash}, since {previous.version_hash}: " + "; ".join(changes)

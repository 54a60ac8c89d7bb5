"""Find stored runs: which run holds a variant's results."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.errors import InputError

if TYPE_CHECKING:
    from arena.storage import Store


def run_with_variant(store: Store, variant: str, run_id: int | None = None) -> int:
    """``run_id`` if given (it must contain the variant), else the newest run that has it."""
    for info in store.runs():
        if variant in info.config.get("variants", {}) and run_id in (None, info.id):
            return info.id
    where = f"run {run_id}" if run_id is not None else "any stored run"
    raise InputError(
        f"variant {variant!r} is not in {where}; run it first with `arena run --variants ...`",
        field="variant",
    )

"""Find stored runs: which run holds a variant's results."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.errors import InputError

if TYPE_CHECKING:
    from arena.storage import Store


def run_with_variant(store: Store, variant: str, run_id: int | None = None) -> int:
    """``run_id`` if given (it must contain the variant), else the newest golden run that has
    it (a shadow run of production traces only when named)."""
    shadow = None
    for info in store.runs():
        if variant not in info.config.get("variants", {}) or run_id not in (None, info.id):
            continue
        if run_id is None and info.is_shadow:
            shadow = info.id if shadow is None else shadow
            continue
        return info.id
    if shadow is not None:
        raise InputError(
            f"variant {variant!r} is only in shadow run {shadow} (arena shadow: production "
            f"traces, not the golden set); run it with `arena run --variants ...`, or give "
            f"--run {shadow} to use the shadow run anyway",
            field="variant",
        )
    where = f"run {run_id}" if run_id is not None else "any stored run"
    raise InputError(
        f"variant {variant!r} is not in {where}; run it first with `arena run --variants ...`",
        field="variant",
    )

"""Where a battle-log row may hold each style count (shared by both reader paths)."""

from __future__ import annotations

from arena.ratings._style_counts import METADATA_KEYS

#: Style count name -> where each row may hold it, first match wins: (container, A, B).
SOURCES: dict[str, tuple[tuple[str | None, str, str], ...]] = {
    "length": (
        (None, "len_a", "len_b"),
        ("conv_metadata", "sum_assistant_a_tokens", "sum_assistant_b_tokens"),
    ),
    **{
        name: (("conv_metadata", f"{stem}_a", f"{stem}_b"),) for name, stem in METADATA_KEYS.items()
    },
}

"""Which variant pairs battle: all pairs, or every variant against one anchor."""

from __future__ import annotations

from itertools import combinations

from arena.errors import InputError


def make_pairs(variants: list[str], pairs: str = "all") -> list[tuple[str, str]]:
    """``all`` (every unordered pair) or ``anchor:NAME`` (every variant against NAME)."""
    if len(variants) < 2:
        raise InputError(
            f"need at least two variants to judge, the run has {len(variants)}", field="pairs"
        )
    if pairs == "all":
        return list(combinations(variants, 2))
    if pairs.startswith("anchor:"):
        anchor = pairs.split(":", 1)[1]
        if anchor not in variants:
            raise InputError(
                f"anchor {anchor!r} is not a variant of the run ({', '.join(variants)})",
                field="pairs",
            )
        return [(anchor, v) for v in variants if v != anchor]
    raise InputError(f"pairs must be 'all' or 'anchor:NAME', got {pairs!r}", field="pairs")

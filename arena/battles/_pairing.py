"""Which variant pairs battle: all pairs, or every variant against one anchor; which pairs of
results are not judged at all (a simulated user failed)."""

from __future__ import annotations

from itertools import combinations

from arena.errors import InputError
from arena.records.results import RunResult


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


def simulator_failed(a: RunResult, b: RunResult) -> bool:
    """Whether the simulated user of either result failed (``RunResult.simulator_error``).

    Such a pair is not judged at all: the failure is not the agent's, so it is neither a
    loss (as a crash is) nor a battle; the judging report counts it apart.
    """
    return a.simulator_error is not None or b.simulator_error is not None

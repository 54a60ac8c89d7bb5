"""A leaderboard read in words, the same in ``arena ratings`` and the app: why variants share
a rank, which variant is best when one is separable, which have too few battles to be
ranked, and which descriptions the measured cost or latency contradicts."""

from __future__ import annotations

from collections.abc import Sequence

from arena.display import claim_warnings, few_battles, interval, too_few_text
from arena.leaderboard._board import VariantStanding

BASELINE = "baseline"
"""The variant descriptions are checked against, when the run has one by that name."""


def ranked(entries: Sequence[VariantStanding]) -> list[VariantStanding]:
    """The rated entries with enough battles for a rank, best first."""
    return [e for e in entries if e.rating is not None and not few_battles(e.battles)]


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def best_variant(entries: Sequence[VariantStanding]) -> VariantStanding | None:
    """The variant proven best by the ratings: alone at rank 1, its 95% interval wholly above
    every other ranked variant's. None when the top intervals overlap (or nothing is ranked)."""
    shown = sorted(ranked(entries), key=lambda e: -(e.rating or 0.0))
    if len(shown) < 2:
        return None
    top, rest = shown[0], shown[1:]
    if top.ci_low is None or any(e.ci_high is None for e in rest):
        return None
    if all(top.ci_low > (e.ci_high or 0.0) for e in rest):
        return top
    return None


def best_text(entries: Sequence[VariantStanding]) -> str:
    """``best: prompt-v2 (...)`` or ``best: none proven yet (...)``."""
    best = best_variant(entries)
    if best is not None:
        return (
            f"best: {best.variant}, rank 1 alone: its 95% interval "
            f"({interval(best.ci_low, best.ci_high)}) lies above every other variant's"
        )
    if len(ranked(entries)) < 2:
        return "best: none proven yet (fewer than two variants have enough battles to rank)"
    return "best: none proven yet (the top variants' 95% intervals overlap)"


def shared_rank_notes(entries: Sequence[VariantStanding]) -> list[str]:
    """One sentence per rank two or more variants share, saying why they share it."""
    groups: dict[int, list[str]] = {}
    for entry in ranked(entries):
        if entry.rank is not None:
            groups.setdefault(int(entry.rank), []).append(entry.variant)
    notes = []
    for rank, names in sorted(groups.items()):
        if len(names) < 2:
            continue
        above = (
            ""
            if rank == 1
            else f"; {rank - 1} variant{'s are' if rank > 2 else ' is'} proven better than each"
        )
        proven = (
            "neither is proven better than the other"
            if len(names) == 2
            else "none of them is proven better than the others"
        )
        notes.append(
            f"{_names(names)} share rank {rank}: their 95% intervals overlap, so {proven}{above}"
        )
    return notes


def unranked_notes(entries: Sequence[VariantStanding]) -> list[str]:
    """Variants rated on too few battles to get a rank or an interval, saying so."""
    return [
        f"{e.variant}: {too_few_text(e.battles)}, no interval"
        for e in entries
        if e.rating is not None and few_battles(e.battles)
    ]


def description_notes(entries: Sequence[VariantStanding], reference: str = BASELINE) -> list[str]:
    """Descriptions claiming *cheaper* or *faster* that the measured figures contradict,
    against the ``reference`` variant (none when the run has no variant of that name)."""
    by_name = {e.variant: e for e in entries}
    base = by_name.get(reference)
    if base is None:
        return []

    def figures(e: VariantStanding) -> dict[str, float | None]:
        return {"cost": e.cost_per_query, "tokens": e.tokens_per_query, "p90": e.p90_latency_s}

    return [
        warning
        for e in entries
        if e.variant != reference
        for warning in claim_warnings(
            e.variant, e.description, figures(e), figures(base), reference
        )
    ]


def board_notes(entries: Sequence[VariantStanding]) -> list[str]:
    """Everything the leaderboard says in words, in reading order: the best variant (if
    rated), shared ranks, unranked variants, contradicted descriptions."""
    rated = any(e.rating is not None for e in entries)
    notes = [best_text(entries)] if rated else []
    return [*notes, *shared_rank_notes(entries), *unranked_notes(entries)] + [
        f"warning: {w}" for w in description_notes(entries)
    ]

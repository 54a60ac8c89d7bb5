"""Pass figures per case difficulty (easy, medium, hard), over counted cases.

The difficulty is a property of the golden case, not of the score, so it is read from the
dataset the run used: ``difficulty`` maps case id to ``easy``/``medium``/``hard``. The
figures follow :mod:`arena.scoring._aggregate`: each case weighs the same whatever its number
of repeats, pending cases are left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.scoring._aggregate import GroupStats, VariantScores, group_stats
from arena.scoring._repeats import CaseRepeats

DIFFICULTIES = ("easy", "medium", "hard")


def difficulty_breakdown(
    variants: Sequence[VariantScores], difficulty: Mapping[str, str]
) -> dict[str, dict[str, GroupStats]]:
    """Variant name -> difficulty -> pass figures of its counted cases of that difficulty."""
    out: dict[str, dict[str, GroupStats]] = {}
    for scores in variants:
        buckets: dict[str, list[CaseRepeats]] = {}
        for case in scores.cases:
            if case.counted and case.case_id in difficulty:
                buckets.setdefault(difficulty[case.case_id], []).append(case)
        order = [d for d in DIFFICULTIES if d in buckets] + sorted(set(buckets) - set(DIFFICULTIES))
        out[scores.variant] = {level: group_stats(buckets[level]) for level in order}
    return out


def difficulty_rows(breakdown: Mapping[str, Mapping[str, GroupStats]]) -> list[list[str]]:
    """Table rows: variant, then ``pass rate (passed/cases)`` per difficulty."""
    levels = [d for d in DIFFICULTIES if any(d in v for v in breakdown.values())]
    rows = []
    for variant, stats in breakdown.items():
        cells = [
            f"{stats[d].pass_rate:.0%} ({stats[d].cases_passed}/{stats[d].n_cases})"
            if d in stats
            else "-"
            for d in levels
        ]
        rows.append([variant, *cells])
    return [["variant", *levels], *rows]


def difficulty_markdown(breakdown: Mapping[str, Mapping[str, GroupStats]]) -> str:
    """A Markdown section with the same table as :func:`difficulty_rows`."""
    header, *rows = difficulty_rows(breakdown)
    lines = [
        "### Pass rate by difficulty",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)

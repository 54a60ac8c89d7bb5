"""The tie margin of verdicts made without labels, learned where people did call ties.

A run of answer files (``arena judge --outputs``), a shadow run of production traffic or the
judging of an escalated pair has no golden-decisive pairs to calibrate the margin on
(:func:`arena.trust._calibration.golden_margin`). Without labels a judge that must choose
reports a verdict at P(A better) = 0.51 as a win, although people call about one pair in five
a tie. So the margin for such runs is learned once, per judge mode, on the **calibration
part** of a public human-preference set *with ties* (PandaLM's human-annotated test set,
three annotators, majority label; ``data/human-preference/pandalm``, Apache-2.0), by
:func:`learn_margin`: among the margins of :data:`UNLABELLED_GRID` whose tie rate there is
within :data:`TIE_BAND` of people's, the one with the highest agreement with people counting
ties (a tie equals only a tie), the smaller margin on equal agreement. It is
shipped as :data:`UNLABELLED_MARGINS` and reported on the set's held-out part by
``python -m benchmarks tie_bench`` (docs/judges.md, "Ties on open-ended answers"), which
learns it again from the cached verdicts and prints both, so a drift shows.

A judge file's ``tie_margin`` (or ``arena judge --tie-margin``) wins over it, and a run with
golden-decisive pairs calibrates on them exactly as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

#: The margins :func:`learn_margin` chooses from (in P(A better) - 0.5).
UNLABELLED_GRID = (0.0, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.125, 0.15, 0.2, 0.25, 0.3)
#: How far the judge's tie rate may be from people's on the pairs a margin is learned on.
TIE_BAND = 0.10
#: Where the shipped margins were learned (the calibration part only; never the held-out part).
UNLABELLED_SOURCE = (
    "PandaLM human-annotated test set, calibration part (data/human-preference/pandalm)"
)
#: Per judge mode, the margin learned by :func:`learn_margin` on the calibration part of
#: :data:`UNLABELLED_SOURCE` with the embedded 1.5B model (``python -m benchmarks tie_bench``,
#: its "learned on N calibration pairs" cells). ``auto``, measured 2026-12-06 on the first 40
#: calibration pairs (people tie on 9, 22.5%): 0.01 ties 9 of 40 (22.5%) and agrees with
#: people on 37.5% counting ties; margin 0 agrees on 40% and never ties, and no margin of the
#: grid agrees more than margin 0 there, so the tie-rate band is what makes it tie. ``blend``
#: is ``auto``'s open-ended judge (the same verdicts). Other modes keep the noise margin or
#: the default until measured.
UNLABELLED_MARGINS: dict[str, float] = {"auto": 0.01, "blend": 0.01}

Side = Literal[0, 1, 2]


def said(p_a: float, margin: float) -> Side:
    """The outcome a margin gives a combined P(A better): 0 (tie) within ``margin`` of 0.5,
    else 1 (A) or 2 (B). A margin of 0 still ties at exactly 0.5."""
    if abs(p_a - 0.5) < margin or p_a == 0.5:
        return 0
    return 1 if p_a > 0.5 else 2


def agreement_at(p_a: Sequence[float], people: Sequence[int], margin: float) -> float:
    """Share of pairs where the outcome at ``margin`` equals people's (0 tie, 1, 2)."""
    if not p_a:
        return 0.0
    return sum(said(p, margin) == h for p, h in zip(p_a, people, strict=True)) / len(p_a)


def tie_share(p_a: Sequence[float], margin: float) -> float:
    """Share of pairs the margin makes a tie."""
    return sum(said(p, margin) == 0 for p in p_a) / len(p_a) if p_a else 0.0


def learn_margin(
    p_a: Sequence[float],
    people: Sequence[int],
    grid: Sequence[float] = UNLABELLED_GRID,
    band: float = TIE_BAND,
) -> float:
    """The margin of ``grid`` that agrees with people most often, ties counted, among those
    whose tie rate is within ``band`` of people's on the same pairs.

    Maximising agreement alone picks no margin at all when the judge's closeness to 0.5
    barely tells where people call a tie (a decided verdict is right about half the time, a
    tie only as often as people tie): the judge then never ties. The band holds its tie rate
    near people's, and agreement chooses inside it. When no margin of the grid falls in the
    band, the one whose tie rate is nearest people's.

    Args:
        p_a: each labelled pair's combined P(A better), as the judge's mode combines its two
            orders (``Battle.p_a``).
        people: each pair's label: 1 (A), 2 (B) or 0 (people called it a tie).
        grid: the margins to choose from, ascending.
        band: how far the judge's tie rate may be from people's.

    Returns:
        The margin; the smaller on equal agreement (``max`` keeps the first).

    Raises:
        ValueError: no pair, or the two sequences differ in length.
    """
    if not p_a or len(p_a) != len(people):
        raise ValueError(
            f"learn_margin needs pairs: {len(p_a)} probabilities, {len(people)} labels"
        )
    ties = sum(h == 0 for h in people) / len(people)
    inside = [m for m in grid if abs(tie_share(p_a, m) - ties) <= band + 1e-12]
    if not inside:
        return min(grid, key=lambda m: abs(tie_share(p_a, m) - ties))
    return max(inside, key=lambda m: agreement_at(p_a, people, m))


def unlabelled_margin(mode: str) -> float | None:
    """The shipped margin for verdicts of ``mode`` made without labels (None: not learned for
    that mode; the run then falls back to the judge's order noise or the default)."""
    return UNLABELLED_MARGINS.get(mode)

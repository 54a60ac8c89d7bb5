"""How many more cases or repeats would decide an inconclusive comparison.

The observations are grouped by case (a case's repeats, or its battles). With ``m`` cases of
``r`` observations each, the variance of the mean is ``(tau2 + sigma2 / r) / m``, where
``sigma2`` is the pooled variance within a case (between repeats) and ``tau2`` the variance of
the true case means (the variance of the observed case means less ``sigma2 / r``). The
comparison is decided when the observed distance ``delta`` to the decision boundary is at
least ``(z(1 - alpha/2) + z(power)) * SE``: the usual normal sample-size rule, taking the
observed estimate as the truth. Solving for ``m`` at the current ``r`` gives the cases
needed; solving for ``r`` at the current ``m`` gives the repeats needed, which do not exist
when the spread between cases alone is too large (then only more cases help). Without
repeats ``sigma2`` and ``tau2`` cannot be told apart and only the number of cases is given.
These are rough planning figures, not guarantees.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil, sqrt
from statistics import NormalDist
from typing import Any

from pydantic import BaseModel, ConfigDict

MAX_FACTOR = 100
"""Beyond this many times the current cases, the comparison is called undecidable."""


class PowerEstimate(BaseModel):
    """Planning figures for an undecided comparison (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    estimate: float
    boundary: float
    se: float
    cases: int
    repeats: int
    cases_needed: int | None = None
    repeats_needed: int | None = None
    message: str


def _variances(groups: list[list[float]]) -> tuple[float, float | None, int]:
    means = [sum(g) / len(g) for g in groups]
    m = len(means)
    grand = sum(means) / m
    between = sum((x - grand) ** 2 for x in means) / (m - 1) if m > 1 else 0.0
    r = max(1, round(sum(len(g) for g in groups) / m))
    dof = sum(len(g) - 1 for g in groups)
    if dof == 0:
        return between, None, r
    within = sum((x - mu) ** 2 for g, mu in zip(groups, means, strict=True) for x in g) / dof
    return between, within, r


def power_estimate(
    groups: Sequence[Sequence[float]],
    boundary: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    what: str = "the result",
) -> PowerEstimate:
    """Cases (and repeats) needed for the mean of ``groups`` to clear ``boundary``."""
    data = [list(g) for g in groups if len(g)]
    if not data:
        raise ValueError("no observations")
    between, within, r = _variances(data)
    m = len(data)
    estimate = sum(x for g in data for x in g) / sum(len(g) for g in data)
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    delta = abs(estimate - boundary)
    per_case = between  # variance of one case's mean at the current repeats
    se = sqrt(per_case / m) if m else 0.0
    base = {"estimate": estimate, "boundary": boundary, "se": se, "cases": m, "repeats": r}
    if delta == 0 or per_case == 0:
        why = "sits exactly on the boundary" if delta == 0 else "shows no spread to size it"
        return PowerEstimate(
            **base, message=f"{what} {why}: more data cannot be sized from these observations"
        )
    cases_needed = ceil((z / delta) ** 2 * per_case)
    if cases_needed > MAX_FACTOR * m:
        return PowerEstimate(
            **base,
            message=f"{what} is too close to {boundary:.2f} "
            f"(observed {estimate:.3f}): more than "
            f"{MAX_FACTOR * m} cases would be needed",
        )
    repeats_needed = _repeats_needed(between, within, r, m, (delta / z) ** 2)
    more = max(0, cases_needed - m)
    text = (
        f"about {cases_needed} cases ({more} more) at {r} repeat{'s' * (r > 1)} would "
        f"decide {what} (observed {estimate:.3f}, boundary {boundary:.2f}, "
        f"{power:.0%} power)"
    )
    if within is None:
        text += "; run with --repeats 2 or more to size repeats too"
    elif repeats_needed is None:
        text += "; more repeats alone cannot: the spread is between cases"
    else:
        text += f", or {repeats_needed} repeats on these {m} cases"
    return PowerEstimate(
        **base, cases_needed=cases_needed, repeats_needed=repeats_needed, message=text
    )


def _repeats_needed(
    between: float, within: float | None, r: int, m: int, target_var: float
) -> int | None:
    """Repeats per case so that the variance of the mean reaches ``target_var``."""
    if within is None:
        return None
    tau2 = max(0.0, between - within / r)
    room = target_var * m - tau2
    if room <= 0:
        return None
    needed = ceil(within / room) if within > 0 else r
    return max(needed, r) if needed <= MAX_FACTOR * r else None


def win_rate_groups(battles: Sequence[Any], candidate: str) -> list[list[float]]:
    """The candidate's score in each battle (win 1, tie 0.5, loss 0), grouped by case.

    ``battles`` carry ``case_id``, ``variant_a`` and ``winner`` (``arena.battles.Battle``);
    errors are left out, as in the win rate.
    """
    from arena.vocabulary import WINNER_SCORE

    groups: dict[str, list[float]] = {}
    for battle in battles:
        if battle.winner not in WINNER_SCORE:
            continue
        score_a = WINNER_SCORE[battle.winner]
        score = score_a if battle.variant_a == candidate else 1.0 - score_a
        groups.setdefault(battle.case_id, []).append(score)
    return list(groups.values())

"""Judging answers without golden expectations: agreement with people, and a fitted combination.

What measures a mode here is agreement with people on labelled pairs (a shipped
human-preference set, :func:`arena.outputs.load_preference_set`), never decisive-pair accuracy
on golden cases. :func:`agreement_with_people` gives the figures MT-Bench reports (with ties,
without ties, Cohen's kappa); :func:`fit_combination` fits a logistic regression over several
modes' P(first better) on the calibration part, to be measured on the held-out part.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

#: An outcome as people or a judge give it: side 1 better, side 2 better, or a tie.
Choice = Literal[1, 2, 0]


class AgreementFigures(BaseModel):
    """A judge against people's choices on the same pairs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pairs: int = Field(description="pairs with both a human choice and a judge outcome")
    with_ties: float | None = Field(description="share of pairs where they agree (tie = tie)")
    decided: int = Field(description="pairs where neither side is a tie")
    without_ties: float | None = Field(description="agreement on the decided pairs")
    kappa: float | None = Field(description="Cohen's kappa over the three outcomes")


def choice(p_first: float | None, margin: float) -> Choice | None:
    """A probability P(side 1 better) as an outcome: a tie within ``margin`` of 0.5.

    Args:
        p_first: P(side 1 better), or None when the judge gave none.
        margin: how far from 0.5 a probability still counts as a tie.

    Returns:
        0 for a tie, 1 or 2 for the side preferred; None without a probability.
    """
    if p_first is None:
        return None
    if abs(p_first - 0.5) <= margin:
        return 0
    return 1 if p_first > 0.5 else 2


def _kappa(people: list[Choice], judge: list[Choice]) -> float | None:
    n = len(people)
    observed = sum(a == b for a, b in zip(people, judge, strict=True)) / n
    expected = sum((people.count(c) / n) * (judge.count(c) / n) for c in (0, 1, 2))
    return None if expected >= 1 else (observed - expected) / (1 - expected)


def agreement_with_people(
    people: Sequence[Choice], judge: Sequence[Choice | None]
) -> AgreementFigures:
    """MT-Bench-style agreement of a judge with people, pair by pair.

    Args:
        people: each pair's human choice (1, 2, or 0 for a tie).
        judge: the judge's outcome on the same pairs (None: no verdict, left out).

    Returns:
        Agreement with ties (a tie equals only a tie), without ties (pairs where either side
        tied left out), and Cohen's kappa over {1, 2, tie}.
    """
    kept = [(h, j) for h, j in zip(people, judge, strict=True) if j is not None]
    if not kept:
        return AgreementFigures(pairs=0, with_ties=None, decided=0, without_ties=None, kappa=None)
    humans = [h for h, _ in kept]
    judged: list[Choice] = [j for _, j in kept]
    same = sum(h == j for h, j in kept)
    decided = [(h, j) for h, j in kept if h != 0 and j != 0]
    return AgreementFigures(
        pairs=len(kept),
        with_ties=same / len(kept),
        decided=len(decided),
        without_ties=(sum(h == j for h, j in decided) / len(decided)) if decided else None,
        kappa=_kappa(humans, judged),
    )


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


class FittedCombination(BaseModel):
    """P(side 1 better) = sigmoid(bias + sum of weight * logit(mode's P(side 1 better)))."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    modes: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float
    pairs: int = Field(description="labelled pairs it was fitted on")

    def p_first(self, probabilities: Sequence[float]) -> float:
        """The combined P(side 1 better) from each mode's, in :attr:`modes` order."""
        z = self.bias + sum(w * _logit(p) for w, p in zip(self.weights, probabilities, strict=True))
        return 1.0 / (1.0 + math.exp(-z))


def fit_combination(
    modes: Sequence[str],
    probabilities: Sequence[Sequence[float]],
    preferred: Sequence[Literal[1, 2]],
    *,
    l2: float = 1.0,
    steps: int = 50,
) -> FittedCombination:
    """Logistic regression of people's choice on each mode's log-odds (Newton, L2 penalty).

    Args:
        modes: the modes' names, the columns of ``probabilities``.
        probabilities: one row per pair: each mode's P(side 1 better).
        preferred: people's choice per pair (1 or 2; ties have no place in a fit).
        l2: the ridge penalty on the weights (not the bias), which keeps a small fit stable.
        steps: Newton steps at most.

    Returns:
        The fitted weights and bias, by mode.

    Raises:
        ValueError: no pairs, or rows of the wrong width.
    """
    if not probabilities or any(len(row) != len(modes) for row in probabilities):
        raise ValueError("fit_combination needs one probability per mode for every pair")
    x = np.array([[1.0, *(_logit(p) for p in row)] for row in probabilities])
    y = np.array([1.0 if c == 1 else 0.0 for c in preferred])
    penalty = np.diag([0.0] + [l2] * len(modes))
    beta = np.zeros(x.shape[1])
    for _ in range(steps):
        mu = 1.0 / (1.0 + np.exp(-(x @ beta)))
        gradient = x.T @ (y - mu) - penalty @ beta
        hessian = x.T @ (x * (mu * (1 - mu))[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        beta = beta + step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return FittedCombination(
        modes=tuple(modes),
        weights=tuple(float(b) for b in beta[1:]),
        bias=float(beta[0]),
        pairs=len(probabilities),
    )


def coverage_at(
    people: Sequence[Choice], p_first: Sequence[float | None], threshold: float
) -> tuple[float, float | None]:
    """(coverage, agreement on the verdicts given) when the judge abstains below a confidence.

    Confidence is ``|2 P - 1|``; a verdict is given when it is at least ``threshold``.

    Args:
        people: people's choice per pair.
        p_first: the judge's P(side 1 better) per pair (None: no verdict).
        threshold: the least confidence at which the judge gives a verdict.

    Returns:
        The share of pairs given a verdict, and the agreement with people on them (None when
        none is given).
    """
    given = [
        (h, 1 if p > 0.5 else 2)
        for h, p in zip(people, p_first, strict=True)
        if p is not None and abs(2 * p - 1) >= threshold and p != 0.5
    ]
    total = len(people)
    coverage = len(given) / total if total else 0.0
    agree = sum(h == j for h, j in given) / len(given) if given else None
    return coverage, agree

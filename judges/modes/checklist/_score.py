"""How a checklist judge turns one answer's item probabilities into one score.

Each item gives P(met) (P(YES) for an item that wants YES, else P(NO)). An answer's score is
a probability; two answers compare by the difference of their scores' log-odds. The rules:

- ``mean``: the mean P(met) (the expected share of items met).
- ``product``: the product of P(met) (P(every item met), items taken as independent).
- ``logit-mean``: the sigmoid of the mean log-odds of P(met) (a geometric pooling).
- ``min``: the least-met item (an answer is as good as its worst item).

:data:`DEFAULT_RULE` is the one ``benchmarks/judge_bench.py`` measured best on decisive pairs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

EPSILON = 1e-4


def _clip(p: float) -> float:
    return min(max(p, EPSILON), 1.0 - EPSILON)


def _logit(p: float) -> float:
    p = _clip(p)
    return math.log(p / (1.0 - p))


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def _mean(ps: Sequence[float]) -> float:
    return sum(ps) / len(ps)


def _product(ps: Sequence[float]) -> float:
    return math.prod(_clip(p) for p in ps)


def _logit_mean(ps: Sequence[float]) -> float:
    return _sigmoid(sum(_logit(p) for p in ps) / len(ps))


RULES: dict[str, Callable[[Sequence[float]], float]] = {
    "mean": _mean,
    "product": _product,
    "logit-mean": _logit_mean,
    "min": min,
}

DEFAULT_RULE = "mean"


def answer_score(p_met: Sequence[float], rule: str = DEFAULT_RULE) -> float:
    """One answer's score in (0, 1) from its items' P(met) by ``rule`` (0.5 without items).

    Args:
        p_met: each checklist item's probability that the answer meets it.
        rule: the name of a rule in :data:`RULES` combining them.

    Returns:
        The score, clipped into (0, 1).
    """
    if not p_met:
        return 0.5
    return _clip(RULES[rule](p_met))


def p_first_better(score_a: float, score_b: float) -> float:
    """P(A better) = sigmoid(logit(score_a) - logit(score_b)) (Bradley-Terry on log-odds).

    Args:
        score_a: the first answer's score in (0, 1).
        score_b: the second answer's score in (0, 1).

    Returns:
        The probability that the first answer is the better one.
    """
    return _sigmoid(_logit(score_a) - _logit(score_b))

"""Repeated runs of one case: pass@k, pass^k, flakiness and score spread.

* ``pass@k`` — probability that at least one of k runs drawn without replacement from
  the n recorded runs passes (Chen et al. 2021's unbiased estimator, as inspect_ai's
  ``pass_at``): ``1 - C(n - c, k) / C(n, k)``.
* ``pass^k`` — probability that all k drawn runs pass: ``C(c, k) / C(n, k)``.
* A case *passes* (for baselines and regression rules) when a strict majority of its
  repeats pass: ``2 * passes > n`` (1 of 2 is a fail).
* A case is *flaky* when ``0 < pass rate < 1``.
* The score spread is the population standard deviation (ddof=0; 0 for one run).

Repeats whose simulated user failed (``CaseScore.simulator_error``) are left out: ``n`` counts
the others and ``simulator_errors`` those; a case all of whose repeats are simulator errors has
no summary (:func:`group_by_case` skips it).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, sqrt

from pydantic import BaseModel, ConfigDict, Field

from arena.scoring._combined import CaseScore
from arena.scoring.checks._reasons import FailReason


def pass_at_k(n: int, c: int, k: int) -> float:
    """Chen et al.'s unbiased pass@k for ``c`` passes in ``n`` runs (``1 <= k <= n``)."""
    _check(n, c, k)
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k = C(c, k) / C(n, k): all k runs drawn from the n pass (``1 <= k <= n``)."""
    _check(n, c, k)
    return comb(c, k) / comb(n, k)


def _check(n: int, c: int, k: int) -> None:
    if not (0 <= c <= n and 1 <= k <= n):
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")


def majority_pass(passes: int, n: int) -> bool:
    """True when a strict majority of ``n`` runs passed."""
    return n > 0 and 2 * passes > n


class CaseRepeats(BaseModel):
    """One case of one variant across its repeats."""

    model_config = ConfigDict(extra="forbid")

    case_id: str
    category: str
    tier: str
    counted: bool
    n: int
    passes: int
    pass_rate: float
    passed: bool = Field(description="A strict majority of the repeats passed.")
    flaky: bool
    score_mean: float
    score_std: float
    pass_at_k: dict[int, float]
    pass_hat_k: dict[int, float]
    errors: int = 0
    fail_reasons: list[FailReason] = Field(default_factory=list)
    conversation: bool = Field(
        False, exclude_if=lambda v: not v, description="The case is a conversation."
    )
    simulator_errors: int = Field(
        0,
        exclude_if=lambda v: v == 0,
        description="Repeats whose simulated user failed: not in n, neither pass nor failure.",
    )


def case_repeats(scores: Sequence[CaseScore]) -> CaseRepeats:
    """Summarise the repeats of one case (all ``scores`` share variant and case); simulator
    errors are counted apart, not summarised."""
    simulated = sum(s.simulator_error is not None for s in scores)
    scores = [s for s in scores if s.simulator_error is None]
    if not scores:
        raise ValueError("no scores to summarise (simulator errors aside)")
    first = scores[0]
    n = len(scores)
    passes = sum(s.passed for s in scores)
    values = [s.score for s in scores]
    mean_score = sum(values) / n
    std = sqrt(sum((v - mean_score) ** 2 for v in values) / n)
    reasons: list[str] = []
    for s in scores:
        reasons.extend(r for r in s.fail_reasons if r not in reasons)
    return CaseRepeats(
        case_id=first.case_id,
        category=first.category,
        tier=first.tier,
        counted=first.counted,
        n=n,
        passes=passes,
        pass_rate=passes / n,
        passed=majority_pass(passes, n),
        flaky=0 < passes < n,
        score_mean=mean_score,
        score_std=std,
        pass_at_k={k: pass_at_k(n, passes, k) for k in range(1, n + 1)},
        pass_hat_k={k: pass_hat_k(n, passes, k) for k in range(1, n + 1)},
        errors=sum(s.error is not None for s in scores),
        fail_reasons=reasons,
        conversation=first.conversation,
        simulator_errors=simulated,
    )


def group_by_case(scores: Sequence[CaseScore]) -> list[CaseRepeats]:
    """Summaries per case id, in order of first appearance (a case with nothing but
    simulator errors has none)."""
    groups: dict[str, list[CaseScore]] = {}
    for score in scores:
        groups.setdefault(score.case_id, []).append(score)
    return [
        case_repeats(group)
        for group in groups.values()
        if any(s.simulator_error is None for s in group)
    ]

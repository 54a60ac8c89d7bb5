"""Per-variant aggregates of case scores and run records.

Two populations are used, by design:

* **score figures** (pass rates, mean score, component means, tool accuracy, pass@k,
  pass^k) cover *counted* cases only: pending-tier cases are listed under
  ``by_tier['pending']`` and in ``cases`` but never enter the overall figures;
* **run figures** (task completion, latency, tokens, cost, error rate) cover every
  result of the variant, pending included: they describe what the runs cost.

Each case weighs the same whatever its number of repeats: the pass rate is the mean over
cases of the case's repeat pass rate, the mean score the mean of per-case mean scores.
``tool_accuracy`` is the mean tool-selection F1 (``trajectory.selection``: multiset F1
against the expected tools or the best acceptable alternative) over counted results,
an errored result counting 0; a tool call that raised, timed out or was unavailable is no
call of the expected tool there (``arena.scoring._required``). Task completion = no error
and a non-empty output.
Latency percentiles use ``numpy.percentile`` with linear interpolation.

**Simulator errors** (a conversation whose simulated user failed: ``CaseScore.simulator_error``)
are neither passes nor failures: they are left out of both populations' pass, score, tool
accuracy, completion and error figures and counted in ``simulator_errors`` (results) and
``simulator_error_cases``; what those runs cost (latency, tokens, cost) stays in the run
figures. ``conversation_pass_at_k`` / ``conversation_pass_hat_k`` are pass@k / pass^k over the
counted conversation cases alone.

The same figures over any tier x category selection (the app's filters) come from
:meth:`VariantScores.figures` and :meth:`VariantScores.figures_by_category`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from arena.records.results import RunResult, known_mean, known_total
from arena.scoring._combined import CaseScore
from arena.scoring._repeats import CaseRepeats, group_by_case
from arena.scoring._types import mean


class GroupStats(BaseModel):
    """Pass figures of a group of cases (a category or a tier)."""

    model_config = ConfigDict(extra="forbid")

    n_cases: int
    n_results: int
    pass_rate: float = Field(description="Mean over cases of the repeat pass rate.")
    cases_passed: int = Field(description="Cases a strict majority of whose repeats pass.")
    mean_score: float


class VariantScores(BaseModel):
    """Everything one variant scored on a dataset run (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    variant: str
    variant_hash: str
    n_results: int
    n_cases: int
    n_counted_cases: int
    pass_rate: float
    mean_score: float
    critical_pass_rate: float | None = None
    by_category: dict[str, GroupStats] = Field(default_factory=dict)
    by_tier: dict[str, GroupStats] = Field(default_factory=dict)
    component_means: dict[str, float] = Field(default_factory=dict)
    tool_accuracy: float = 0.0
    task_completion_rate: float = 0.0
    error_rate: float = 0.0
    latency_mean_s: float = 0.0
    latency_p50_s: float = 0.0
    latency_p90_s: float = 0.0
    latency_p99_s: float = 0.0
    input_tokens_mean: float = 0.0
    output_tokens_mean: float = 0.0
    input_tokens_total: int = 0
    output_tokens_total: int = 0
    cost_mean_usd: float | None = Field(0.0, description="None: a result's cost is unknown.")
    cost_total_usd: float | None = Field(0.0, description="None: a result's cost is unknown.")
    n_repeats: int = 1
    pass_at_k: dict[int, float] = Field(default_factory=dict)
    pass_hat_k: dict[int, float] = Field(default_factory=dict)
    flaky_cases: list[str] = Field(default_factory=list)
    cases: list[CaseRepeats] = Field(default_factory=list)
    simulator_errors: int = Field(
        0,
        exclude_if=lambda v: v == 0,
        description="Results whose simulated user failed: not agent failures, left out of "
        "every pass figure.",
    )
    simulator_error_cases: list[str] = Field(
        default_factory=list,
        exclude_if=lambda v: not v,
        description="Cases with at least one simulator error.",
    )
    conversation_pass_at_k: dict[int, float] = Field(
        default_factory=dict,
        exclude_if=lambda v: not v,
        description="pass@k over the counted conversation cases.",
    )
    conversation_pass_hat_k: dict[int, float] = Field(
        default_factory=dict,
        exclude_if=lambda v: not v,
        description="pass^k (all k repeats pass) over the counted conversation cases.",
    )

    def figures(self, tier: str | None = None, category: str | None = None) -> GroupStats | None:
        """Pass figures over one tier and one category (see :func:`filter_case_scores`).

        ``figures()`` covers every counted case, like :attr:`pass_rate` and
        :attr:`mean_score`; None when no case of the variant is in the selection.
        """
        chosen = filter_case_scores(self.cases, tier, category)
        return group_stats(chosen) if chosen else None

    def figures_by_category(self, tier: str | None = None) -> dict[str, GroupStats]:
        """Pass figures per category over one tier (None: every counted tier)."""
        return _groups(filter_case_scores(self.cases, tier), "category")


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) with linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    import numpy as np

    return float(np.percentile(np.asarray(values, dtype=float), q, method="linear"))


def filter_case_scores(
    cases: Sequence[CaseRepeats], tier: str | None = None, category: str | None = None
) -> list[CaseRepeats]:
    """The cases of one tier and one category, in order.

    ``tier=None`` selects every *counted* case (pending cases are shown, never counted), a
    tier name that tier only (``'pending'`` included); ``category=None`` every category.
    """
    return [
        c
        for c in cases
        if (c.counted if tier is None else c.tier == tier)
        and (category is None or c.category == category)
    ]


def group_stats(cases: list[CaseRepeats]) -> GroupStats:
    """Pass rate, cases passed and mean score of a group of cases (repeats folded)."""
    return GroupStats(
        n_cases=len(cases),
        n_results=sum(c.n for c in cases),
        pass_rate=mean([c.pass_rate for c in cases]),
        cases_passed=sum(c.passed for c in cases),
        mean_score=mean([c.score_mean for c in cases]),
    )


def _groups(cases: list[CaseRepeats], key: str) -> dict[str, GroupStats]:
    buckets: dict[str, list[CaseRepeats]] = {}
    for case in cases:
        buckets.setdefault(getattr(case, key), []).append(case)
    return {name: group_stats(items) for name, items in sorted(buckets.items())}


def _component_means(scores: list[CaseScore]) -> dict[str, float]:
    values: dict[str, list[float]] = {}
    for score in scores:
        for name, value in score.components.items():
            values.setdefault(name, []).append(value)
    return {name: mean(items) for name, items in sorted(values.items())}


def _ks(cases: list[CaseRepeats], attr: str) -> dict[int, float]:
    if not cases:
        return {}
    top = min(c.n for c in cases)
    return {k: mean([getattr(c, attr)[k] for c in cases]) for k in range(1, top + 1)}


def _run_figures(results: list[RunResult]) -> dict[str, float | int | None]:
    n = len(results)
    if not n:
        return {}
    latencies = [r.latency_s for r in results]
    agent = [r for r in results if r.simulator_error is None]
    done = sum(r.error is None and bool(r.output.strip()) for r in agent)
    return {
        "task_completion_rate": done / len(agent) if agent else 0.0,
        "error_rate": sum(r.error is not None for r in agent) / len(agent) if agent else 0.0,
        "latency_mean_s": mean(latencies),
        "latency_p50_s": percentile(latencies, 50),
        "latency_p90_s": percentile(latencies, 90),
        "latency_p99_s": percentile(latencies, 99),
        "input_tokens_mean": mean([float(r.input_tokens) for r in results]),
        "output_tokens_mean": mean([float(r.output_tokens) for r in results]),
        "input_tokens_total": sum(r.input_tokens for r in results),
        "output_tokens_total": sum(r.output_tokens for r in results),
        "cost_mean_usd": known_mean([r.cost_usd for r in results]),
        "cost_total_usd": known_total(r.cost_usd for r in results),
    }


def variant_scores(scores: list[CaseScore], results: list[RunResult]) -> VariantScores:
    """Aggregate one variant's scores and its run records (all of one variant)."""
    if not scores:
        raise ValueError("no scores to aggregate")
    cases = group_by_case(scores)
    counted = [c for c in cases if c.counted]
    valid = [s for s in scores if s.simulator_error is None]
    counted_scores = [s for s in valid if s.counted]
    by_tier = _groups(cases, "tier")
    dialogues = [c for c in counted if c.conversation]
    simulated = [s for s in scores if s.simulator_error is not None]
    return VariantScores(
        variant=scores[0].variant,
        variant_hash=scores[0].variant_hash,
        n_results=len(valid),
        n_cases=len(cases),
        n_counted_cases=len(counted),
        pass_rate=mean([c.pass_rate for c in counted]),
        mean_score=mean([c.score_mean for c in counted]),
        critical_pass_rate=by_tier["critical"].pass_rate if "critical" in by_tier else None,
        by_category=_groups(counted, "category"),
        by_tier=by_tier,
        component_means=_component_means(counted_scores),
        tool_accuracy=mean([s.components.get("trajectory.selection", 0.0) for s in counted_scores]),
        n_repeats=max((c.n for c in cases), default=1),
        pass_at_k=_ks(counted, "pass_at_k"),
        pass_hat_k=_ks(counted, "pass_hat_k"),
        flaky_cases=[c.case_id for c in cases if c.flaky],
        cases=cases,
        simulator_errors=len(simulated),
        simulator_error_cases=list(dict.fromkeys(s.case_id for s in simulated)),
        conversation_pass_at_k=_ks(dialogues, "pass_at_k"),
        conversation_pass_hat_k=_ks(dialogues, "pass_hat_k"),
        **_run_figures(results),
    )


def aggregate(scores: list[CaseScore], results: list[RunResult]) -> list[VariantScores]:
    """One :class:`VariantScores` per (variant, variant_hash), in order of appearance.

    ``results`` supply the run figures; they are matched to scores by variant name and
    hash (results of variants without scores are ignored).
    """
    keys: dict[tuple[str, str], list[CaseScore]] = {}
    for score in scores:
        keys.setdefault((score.variant, score.variant_hash), []).append(score)
    out: list[VariantScores] = []
    for (name, version), group in keys.items():
        runs = [r for r in results if r.variant == name and r.variant_hash == version]
        out.append(variant_scores(group, runs))
    return out

"""Absolute and cost limits: a gate that needs no baseline, and one on cost and speed.

**Absolute** limits bound the candidate's own pass rates: overall, on the critical tier, per
tier and per category (counted cases; a limit whose cases were not run fails, so a gate never
passes on cases it did not see). **Cost** limits (the ``budget:`` section of ``arena.yaml``,
checks of kind ``budget``; not the ``--max-cost`` spending budget of :mod:`arena.plan._budget`)
bound the candidate's cost per query,
tokens per query and p90 latency, and their relative increase over the baseline (0.2 = at
most 20% more), the increases measured on the cases both ran. A cost of 0 while tokens were
spent means the model has no price: the notes say so, since local models carry their cost in
tokens and latency unless a variant sets ``price_per_hour`` or ``price_*_per_mtok``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from arena.golden._models import CATEGORY_PATTERN, Tier

if TYPE_CHECKING:  # the limits load with arena.yaml in every command: scoring loads when used
    from arena.scoring._aggregate import VariantScores
    from arena.scoring._baseline import Baseline


class AbsoluteLimits(BaseModel):
    """Minimum pass rates of the candidate (None: no limit)."""

    model_config = ConfigDict(extra="forbid")

    min_pass_rate: float | None = Field(
        None, ge=0, le=1, description="The lowest pass rate over every counted case."
    )
    min_critical_pass_rate: float | None = Field(
        None, ge=0, le=1, description="The lowest pass rate over the critical cases."
    )
    min_tier_pass_rate: dict[str, float] = Field(
        default_factory=dict, description="Per tier, the lowest pass rate."
    )
    min_category_pass_rate: dict[str, float] = Field(
        default_factory=dict, description="Per category, the lowest pass rate."
    )

    @field_validator("min_tier_pass_rate")
    @classmethod
    def _tiers(cls, value: dict[str, float]) -> dict[str, float]:
        return _check_keys(value, [t.value for t in Tier if t != Tier.PENDING], "tier")

    @field_validator("min_category_pass_rate")
    @classmethod
    def _categories(cls, value: dict[str, float]) -> dict[str, float]:
        # a dataset may declare its own categories: any category name (one never run fails)
        names = [k for k in value if re.fullmatch(CATEGORY_PATTERN, k)]
        return _check_keys(value, names, "category")

    def any(self) -> bool:
        """True when at least one limit is set."""
        return bool(
            self.min_pass_rate is not None
            or self.min_critical_pass_rate is not None
            or self.min_tier_pass_rate
            or self.min_category_pass_rate
        )


def _check_keys(value: dict[str, float], known: list[str], what: str) -> dict[str, float]:
    unknown = sorted(set(value) - set(known))
    if unknown:
        raise ValueError(f"unknown {what}(s) {', '.join(unknown)}; use {', '.join(known)}")
    bad = sorted(k for k, v in value.items() if not 0 <= v <= 1)
    if bad:
        raise ValueError(f"pass rates must be between 0 and 1 ({', '.join(bad)})")
    return value


class CostLimits(BaseModel):
    """Largest cost, tokens and p90 latency per query, and largest relative increases."""

    model_config = ConfigDict(extra="forbid")

    max_cost_per_query: float | None = Field(None, ge=0, description="US dollars.")
    max_tokens_per_query: float | None = Field(
        None, ge=0, description="The most tokens per query (mean over cases)."
    )
    max_p90_latency_s: float | None = Field(
        None, ge=0, description="The longest p90 latency, in seconds."
    )
    max_cost_increase: float | None = Field(None, ge=0, description="0.2 = at most +20%.")
    max_tokens_increase: float | None = Field(
        None, ge=0, description="Relative increase over the baseline: 0.2 = at most +20%."
    )
    max_latency_increase: float | None = Field(
        None, ge=0, description="Relative p90 increase over the baseline: 0.2 = at most +20%."
    )

    def any(self) -> bool:
        """True when at least one limit is set."""
        return any(v is not None for v in self.model_dump().values())


BudgetLimits = CostLimits
"""The former name of :class:`CostLimits`."""


class LimitCheck(BaseModel):
    """One limit applied: the value seen, the limit, and whether it holds."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["absolute", "budget"]
    name: str
    scope: str = ""
    value: float | None
    limit: float
    baseline: float | None = None
    passed: bool
    message: str


def _rate(name: str, scope: str, value: float | None, limit: float) -> LimitCheck:
    if value is None:
        return LimitCheck(
            kind="absolute",
            name=name,
            scope=scope,
            value=None,
            limit=limit,
            passed=False,
            message=f"{name} ({scope}): no counted case was run, "
            f"so the {limit:.0%} minimum cannot hold",
        )
    ok = value >= limit - 1e-12
    return LimitCheck(
        kind="absolute",
        name=name,
        scope=scope,
        value=value,
        limit=limit,
        passed=ok,
        message=f"{scope} pass rate {value:.1%} {'>=' if ok else '<'} {limit:.0%}",
    )


def check_absolute(scores: VariantScores, limits: AbsoluteLimits) -> list[LimitCheck]:
    """Apply the minimum pass rates to the candidate's counted cases."""
    out = []
    if limits.min_pass_rate is not None:
        value = scores.pass_rate if scores.n_counted_cases else None
        out.append(_rate("min_pass_rate", "overall", value, limits.min_pass_rate))
    if limits.min_critical_pass_rate is not None:
        out.append(
            _rate(
                "min_critical_pass_rate",
                "tier critical",
                scores.critical_pass_rate,
                limits.min_critical_pass_rate,
            )
        )
    for tier, limit in sorted(limits.min_tier_pass_rate.items()):
        group = scores.by_tier.get(tier)
        out.append(
            _rate("min_tier_pass_rate", f"tier {tier}", group.pass_rate if group else None, limit)
        )
    for category, limit in sorted(limits.min_category_pass_rate.items()):
        group = scores.by_category.get(category)
        out.append(
            _rate(
                "min_category_pass_rate",
                f"category {category}",
                group.pass_rate if group else None,
                limit,
            )
        )
    return out


class CostFigures(BaseModel):
    """Cost, tokens and p90 latency per query of one side."""

    cost_per_query: float | None
    tokens_per_query: float | None
    latency_p90_s: float | None

    @classmethod
    def of(cls, snap: Baseline, case_ids: Iterable[str] | None = None) -> CostFigures:
        """Figures over the given cases' results (all when None), else the snapshot's own."""
        ids = list(snap.cases) if case_ids is None else list(case_ids)
        records = [snap.cases[c] for c in ids if c in snap.cases]
        if records and all(r.latency_s for r in records):
            from arena.records.results import known_mean
            from arena.scoring._aggregate import percentile
            from arena.scoring._types import mean

            costs = [x for r in records for x in r.cost_usd]  # None: unknown
            tokens = [float(x) for r in records for x in r.tokens]
            latency = [x for r in records for x in r.latency_s]
            return cls(
                cost_per_query=known_mean(costs),
                tokens_per_query=mean(tokens),
                latency_p90_s=percentile(latency, 90),
            )
        return cls(
            cost_per_query=snap.cost_per_query,
            tokens_per_query=snap.tokens_per_query,
            latency_p90_s=snap.latency_p90_s,
        )


_FIGURES = (
    ("cost_per_query", "cost per query", "max_cost_per_query", "max_cost_increase", "${:.5f}"),
    (
        "tokens_per_query",
        "tokens per query",
        "max_tokens_per_query",
        "max_tokens_increase",
        "{:.0f}",
    ),
    ("latency_p90_s", "p90 latency", "max_p90_latency_s", "max_latency_increase", "{:.1f} s"),
)


def _increase(
    name: str, label: str, fmt: str, now: float, before: float, limit: float
) -> LimitCheck:
    if before <= 0:
        ok = now <= 0
        text = f"{label} {fmt.format(now)} vs 0 in the baseline"
    else:
        change = now / before - 1
        ok = change <= limit + 1e-12
        text = (
            f"{label} {fmt.format(now)} vs {fmt.format(before)} ({change:+.0%}, limit +{limit:.0%})"
        )
    return LimitCheck(
        kind="budget",
        name=name,
        scope="vs baseline",
        value=now,
        limit=limit,
        baseline=before,
        passed=ok,
        message=text,
    )


def check_cost_limits(
    candidate: CostFigures,
    baseline: CostFigures | None,
    limits: CostLimits,
    *,
    paired_candidate: CostFigures | None = None,
) -> list[LimitCheck]:
    """Apply absolute cost limits, and relative ones when a baseline is given.

    Absolute limits use ``candidate``; increases compare ``paired_candidate`` (the candidate
    over the cases the baseline also ran) when given, else ``candidate``, with ``baseline``.
    """
    out = []
    for field, label, cap_name, rise_name, fmt in _FIGURES:
        now = getattr(candidate, field)
        cap = getattr(limits, cap_name)
        if cap is not None and now is not None:
            ok = now <= cap + 1e-12
            out.append(
                LimitCheck(
                    kind="budget",
                    name=cap_name,
                    scope="candidate",
                    value=now,
                    limit=cap,
                    passed=ok,
                    message=f"{label} {fmt.format(now)} {'<=' if ok else '>'} {fmt.format(cap)}",
                )
            )
        rise = getattr(limits, rise_name)
        before = getattr(baseline, field) if baseline is not None else None
        paired = getattr(paired_candidate or candidate, field)
        if rise is not None and paired is not None and before is not None:
            out.append(_increase(rise_name, label, fmt, paired, before, rise))
    return out


def unpriced_note(figures: CostFigures, who: str) -> str | None:
    """A note when a side spent tokens at a cost of 0 (a model without a price)."""
    if figures.cost_per_query == 0 and (figures.tokens_per_query or 0) > 0:
        return (
            f"{who}: cost per query is 0 for {figures.tokens_per_query:.0f} tokens: its "
            "model has no price (set model.price_per_hour or price_input_per_mtok / "
            "price_output_per_mtok in the variant); tokens and latency carry its cost"
        )
    return None


def figures_of(scores: VariantScores) -> CostFigures:
    """Budget figures of a variant's aggregate (every result of the run)."""
    return CostFigures(
        cost_per_query=scores.cost_mean_usd,
        tokens_per_query=scores.input_tokens_mean + scores.output_tokens_mean,
        latency_p90_s=scores.latency_p90_s,
    )

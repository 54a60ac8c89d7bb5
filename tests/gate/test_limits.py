"""Absolute and budget limits, prices per hour, and why a case broke."""

from __future__ import annotations

import pytest

from arena.gate._classify import classify, reason_kind
from arena.gate._limits import (
    AbsoluteLimits,
    CostFigures,
    CostLimits,
    check_absolute,
    check_cost_limits,
    unpriced_note,
)
from arena.models import price_for
from arena.models._config import ModelConfig
from arena.scoring import CaseScore, aggregate
from arena.scoring._baseline import CaseRecord
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit


def _scores(values: dict[str, tuple[str, str, float]]) -> list[CaseScore]:
    return [
        CaseScore(
            variant="v",
            variant_hash="h",
            case_id=case,
            category=category,
            tier=tier,
            counted=tier != "pending",
            score=score,
            passed=score >= 0.7,
        )
        for case, (category, tier, score) in values.items()
    ]


SCORES = _scores(
    {
        "A": ("happy_path", "critical", 0.9),
        "B": ("edge_case", "critical", 0.2),
        "C": ("happy_path", "standard", 0.9),
        "D": ("ambiguous", "standard", 0.9),
    }
)


def test_absolute_limits_hold_or_fail() -> None:
    [variant] = aggregate(SCORES, [])
    limits = AbsoluteLimits(
        min_pass_rate=0.7,
        min_critical_pass_rate=0.6,
        min_tier_pass_rate={"standard": 1.0},
        min_category_pass_rate={"happy_path": 1.0, "edge_case": 0.5},
    )
    checks = {(c.name, c.scope): c for c in check_absolute(variant, limits)}
    assert checks[("min_pass_rate", "overall")].passed  # 3/4
    assert not checks[("min_critical_pass_rate", "tier critical")].passed  # 1/2 < 0.6
    assert checks[("min_tier_pass_rate", "tier standard")].passed
    assert checks[("min_category_pass_rate", "category happy_path")].passed
    failing = checks[("min_category_pass_rate", "category edge_case")]
    assert not failing.passed and failing.message == "category edge_case pass rate 0.0% < 50%"


def test_a_limit_on_cases_that_were_not_run_fails() -> None:
    [variant] = aggregate(_scores({"C": ("happy_path", "standard", 0.9)}), [])
    [check] = check_absolute(variant, AbsoluteLimits(min_critical_pass_rate=0.5))
    assert not check.passed and "no counted case was run" in check.message


def test_absolute_limits_are_validated() -> None:
    with pytest.raises(ValueError, match="unknown tier"):
        AbsoluteLimits(min_tier_pass_rate={"gold": 0.5})
    with pytest.raises(ValueError, match="between 0 and 1"):
        AbsoluteLimits(min_category_pass_rate={"happy_path": 2})
    with pytest.raises(ValueError):
        AbsoluteLimits(min_pass_rate=1.5)


def test_budget_caps_and_increases() -> None:
    now = CostFigures(cost_per_query=0.012, tokens_per_query=900, latency_p90_s=4.0)
    before = CostFigures(cost_per_query=0.01, tokens_per_query=1000, latency_p90_s=2.0)
    limits = CostLimits(
        max_cost_per_query=0.02,
        max_tokens_per_query=800,
        max_p90_latency_s=5,
        max_cost_increase=0.1,
        max_tokens_increase=0.0,
        max_latency_increase=1.0,
    )
    checks = {c.name: c for c in check_cost_limits(now, before, limits)}
    assert checks["max_cost_per_query"].passed
    assert not checks["max_tokens_per_query"].passed  # 900 > 800
    assert checks["max_p90_latency_s"].passed
    assert not checks["max_cost_increase"].passed  # +20% > +10%
    assert "+20%" in checks["max_cost_increase"].message
    assert checks["max_tokens_increase"].passed  # fewer tokens
    assert checks["max_latency_increase"].passed  # exactly +100%
    assert {c.name for c in check_cost_limits(now, None, limits)} == {
        "max_cost_per_query",
        "max_tokens_per_query",
        "max_p90_latency_s",
    }


def test_an_increase_over_a_free_baseline_fails() -> None:
    now = CostFigures(cost_per_query=0.001, tokens_per_query=10, latency_p90_s=1)
    free = CostFigures(cost_per_query=0.0, tokens_per_query=10, latency_p90_s=1)
    [check] = check_cost_limits(now, free, CostLimits(max_cost_increase=0.5))
    assert not check.passed and "vs 0 in the baseline" in check.message


def test_a_cost_of_zero_for_tokens_is_never_silent() -> None:
    note = unpriced_note(
        CostFigures(cost_per_query=0.0, tokens_per_query=500, latency_p90_s=3), "candidate x"
    )
    assert note is not None and "price_per_hour" in note
    assert (
        unpriced_note(CostFigures(cost_per_query=0.01, tokens_per_query=500, latency_p90_s=3), "x")
        is None
    )


def test_a_self_hosted_model_costs_its_machine_time() -> None:
    config = ModelConfig(spec="local:qwen2.5-coder-1.5b", price_per_hour=3.6)
    price = price_for(config)
    assert price.cost(1000, 1000, seconds=10) == pytest.approx(0.01)
    tokens = ModelConfig(spec="local:qwen2.5-coder-1.5b", price_input_per_mtok=1.0)
    assert price_for(tokens).cost(1_000_000, 0, seconds=10) == pytest.approx(1.0)


def test_an_unset_hourly_price_leaves_version_hashes_unchanged() -> None:
    plain = Variant.model_validate({"name": "v", "model": {"spec": "fake:x"}})
    priced = Variant.model_validate(
        {"name": "v", "model": {"spec": "fake:x", "price_per_hour": 2.0}}
    )
    assert "price_per_hour" not in plain.model_dump()["model"]
    assert plain.version_hash != priced.version_hash


def _record(**fields: object) -> CaseRecord:
    base: dict[str, object] = {"category": "happy_path", "tier": "critical", "n": 1, "passes": 0}
    return CaseRecord.model_validate(base | fields)


@pytest.mark.parametrize(
    ("before", "now", "kind", "check"),
    [
        (
            {"components": {"output": 1.0}},
            {"errors": 1, "error": "TimeoutError: slow"},
            "error",
            "run error: TimeoutError: slow",
        ),
        (
            {"components": {"trajectory": 1.0, "output": 1.0}},
            {
                "components": {"trajectory": 0.2, "output": 0.9},
                "fail_reasons": ["score 0.50 < 0.70", "tools [] vs expected ['calculate']"],
            },
            "trajectory",
            "tools [] vs expected ['calculate']",
        ),
        (
            {"components": {"trajectory": 1.0, "output": 1.0}},
            {
                "components": {"trajectory": 1.0, "output": 0.0},
                "fail_reasons": ["score 0.60 < 0.70", "output missing: '300'"],
            },
            "output",
            "output missing: '300'",
        ),
        (
            {"components": {"behavior": 1.0, "trajectory": 1.0}},
            {
                "components": {"behavior": 0.0, "trajectory": 1.0},
                "fail_reasons": ["behaviour refuse not shown (keywords: no refusal)"],
            },
            "behavior",
            "behaviour refuse not shown (keywords: no refusal)",
        ),
        (
            {"components": {"functional": 1.0, "trajectory": 1.0}},
            {
                "components": {"functional": 0.0, "trajectory": 1.0},
                "fail_reasons": ["expected file missing or incomplete"],
            },
            "side_effect",
            "expected file missing or incomplete",
        ),
        (
            {"components": {"trajectory": 1.0, "output": 1.0}},
            {
                "components": {"trajectory": 1.0, "output": 1.0},
                "fail_reasons": ["forbidden tool called: send_email"],
            },
            "trajectory",
            "forbidden tool called: send_email",
        ),
        ({}, {"components": {"trajectory": 0.9, "output": 0.1}}, "output", "output score 0.10"),
        (  # a prompt that forbids tools: the answer is missing, because no tool was called
            {"components": {"trajectory": 1.0, "output": 1.0}},
            {
                "components": {"trajectory": 0.45, "output": 0.0},
                "fail_reasons": [
                    "score 0.30 < 0.70",
                    "output missing: ['chunking']",
                    "tools [] vs expected ['search_web']",
                ],
            },
            "output",
            "output missing: ['chunking'] (also trajectory: tools [] vs expected ['search_web'])",
        ),
    ],
)
def test_each_regression_is_classified(
    before: dict[str, object], now: dict[str, object], kind: str, check: str
) -> None:
    assert classify(_record(**before), _record(**now)) == (kind, check)


def test_reason_kinds() -> None:
    assert reason_kind("run error: x") == "error"
    assert reason_kind("output contains forbidden text: ['x']") == "output"
    assert reason_kind("score 0.52 < 0.70") is None

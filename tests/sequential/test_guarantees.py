"""The guarantee on each path, by simulation (quick; benchmarks/sequence_paths.py has the full
figures): continued runs keep one sequence, critical cases block by evidence."""

from __future__ import annotations

import math

import pytest

from arena.compare.sequential._sequence import PlanRequest, continue_plan, level, start_plan
from arena.errors import InputError
from arena.sequential._critical import case_share, critical_blocks, drop_p_value
from tests.support.benchmarks import load_benchmark

pytestmark = pytest.mark.unit

paths = load_benchmark("sequence_paths")


def _request(**change: object) -> PlanRequest:
    ids = [f"c{i}" for i in range(50)]
    asked = {
        "key": "k",
        "seed": None,
        "derived_seed": 11,
        "case_ids": ids,
        "case_hashes": {c: "h" for c in ids},
        "alpha": 0.05,
        "margin": 0.05,
        "max_cases": 10,
        "question": "three-way",
        "finite": False,
        "repeats": 1,
        "boundary": "anytime",  # the boundary a rerun may raise the budget of
    }
    return PlanRequest.model_validate({**asked, **change})


def _upper(rate: float, runs: int) -> float:
    """A one-sided 99% upper bound of a simulated rate."""
    return rate + 2.33 * math.sqrt(max(rate * (1 - rate), 1e-9) / runs)


def test_continued_reruns_keep_false_better_within_its_half_of_alpha() -> None:
    # 40 -> 80 -> ... -> 200 cases (the path), 6000 sets: the s.e. near 2.5% is 0.2%,
    # so a rate of 3.2% (re-betting on each rerun) could not pass
    runs = 6000
    rate = paths.continued_false_better(runs, grid=100)
    assert _upper(rate, runs) < 0.025 + 0.0035


def test_a_continued_plan_keeps_order_horizon_and_bets() -> None:
    first = start_plan(_request())
    assert first.seed == 11 and first.seed_source == "derived" and first.horizon == 5
    grown_ids = [f"c{i}" for i in range(60)]
    later = continue_plan(
        first,
        _request(max_cases=40, case_ids=grown_ids, case_hashes={c: "h" for c in grown_ids}),
    )
    assert later.order[:50] == first.order  # new cases only after the stored order
    assert set(later.order[50:]) == {f"c{i}" for i in range(50, 60)}
    assert later.horizon == first.horizon and later.budget == 40 and later.continued == 1
    assert later.alpha == first.alpha and later.seed == first.seed


def test_a_spending_plan_refuses_a_larger_budget_and_accepts_an_equal_or_smaller_one() -> None:
    first = start_plan(_request(boundary="spending"))
    assert first.boundary == "spending" and first.boundary_plan().budget == 10
    with pytest.raises(InputError) as error:
        continue_plan(first, _request(boundary=None, max_cases=11))
    assert error.value.field == "--max-cases" and "budget of 10 cases" in str(error.value)
    same = continue_plan(first, _request(boundary=None, max_cases=10))
    lower = continue_plan(first, _request(boundary=None, max_cases=6))
    assert same.budget == 10 and lower.budget == 6 and same.continued == 1
    # the boundary stays the one planned for 10 cases: the same decisions on replay
    assert lower.boundary_plan() == first.boundary_plan()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"alpha": 0.01}, "--alpha"),
        ({"margin": 0.1}, "--margin"),
        ({"seed": 3}, "--seed"),
        ({"repeats": 2}, "--repeats"),
        ({"finite": True}, "--finite"),
        ({"boundary": "spending"}, "--boundary"),
    ],
)
def test_a_continuation_that_changes_the_test_is_refused(
    change: dict[str, object], field: str
) -> None:
    with pytest.raises(InputError) as error:
        continue_plan(start_plan(_request()), _request(**change))
    assert error.value.field == field and "continues a stored sequence" in str(error.value)


def test_an_edited_seen_case_is_refused_by_name() -> None:
    from arena.compare.sequential._sequence import Evidence

    plan = start_plan(_request())
    plan.evidence.append(Evidence(case_id="c3", case_hash="h", outcome=1.0))
    hashes = {f"c{i}": "h" for i in range(50)} | {"c3": "edited"}
    with pytest.raises(InputError) as error:
        continue_plan(plan, _request(case_hashes=hashes))
    assert error.value.case == "c3" and "edited" in str(error.value)


def test_equal_stochastic_agents_are_not_called_worse_by_critical_cases() -> None:
    # the design: pass probability 0.8, six critical cases; the old rule said "worse"
    # in 65% of runs. 200000 runs: the s.e. is below 0.04%
    runs = 200_000
    assert paths.critical_false_worse(runs, repeats=1, old_rule=True) > 0.6
    for p in (0.8, 0.5):
        for repeats in (1, 2, 3, 5):
            rate = paths.critical_false_worse(runs, p=p, repeats=repeats, seed=repeats)
            assert _upper(rate, runs) <= 0.05, (p, repeats, rate)


def test_critical_blocks_on_deterministic_failures_and_significant_drops_only() -> None:
    share = case_share(0.05, 0.0, 6)
    assert share == pytest.approx(0.05 / 12)
    assert critical_blocks(5, 5, 0, 5, alpha_case=share)  # 4^-5 between equal agents
    assert not critical_blocks(3, 3, 0, 3, alpha_case=share)  # 4^-3: too common
    assert critical_blocks(3, 3, 0, 3, alpha_case=share, strict=True)
    assert not critical_blocks(1, 1, 0, 1, alpha_case=share)  # one repeat: no evidence
    assert critical_blocks(1, 1, 0, 1, alpha_case=share, strict=True)
    assert not critical_blocks(5, 5, 1, 5, alpha_case=share, strict=True)
    assert critical_blocks(20, 20, 4, 20, alpha_case=share)  # p ~ 1e-7
    assert drop_p_value(5, 5, 0, 5) == pytest.approx(1 / 252)
    # the shares of a growing set never spend more than alpha / 2
    spent = 0.0
    for untested in (6, 5, 9, 8, 7, 6, 5, 4, 3, 2, 1):
        spent += case_share(0.05, spent, untested)
    assert spent <= 0.025 + 1e-12


@pytest.mark.parametrize(
    ("alpha", "text"), [(0.05, "95%"), (0.025, "97.5%"), (0.01, "99%"), (0.001, "99.9%")]
)
def test_the_level_is_printed_with_the_right_precision(alpha: float, text: str) -> None:
    assert level(alpha) == text

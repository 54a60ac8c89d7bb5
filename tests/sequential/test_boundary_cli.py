"""The known-horizon boundary on the documented commands: `arena compare/gate --sequential`
stop for futility (reported as "undecided: more cases would not settle it"), the plan stores
its boundary and a rerun replays the same stop, a larger budget is refused under the spending
boundary, and the driver's stopping rule keeps false "better" within alpha / 2."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena.cli import main
from arena.compare.sequential._sequence import PlanRequest, SequencePlan, load_plan, start_plan
from arena.sequential._rule import stop_codes
from arena.sequential._stopping import BETTER, FUTILE, OPEN
from arena.storage import Store
from tests.gate.conftest import Project
from tests.sequential.test_sequential_cli import GOOD, MANY, _json, compare, gate

pytestmark = pytest.mark.unit

FUTILE_TEXT = "undecided: more cases would not settle it"


def _split(project: Project) -> None:
    """Equal variants that disagree on every case: each wins half of them (win or loss, the
    largest variance), so neither "better", "worse" nor "within the margin" can settle."""
    project.write_dataset(MANY)
    odd = {k: ("beta" if int(k.split("-")[1]) % 2 else "no") for k in GOOD}
    project.variant("base", odd)
    project.variant("cand", {k: ("no" if v == "beta" else "beta") for k, v in odd.items()})


def test_compare_stops_for_futility_in_every_report(
    project: Project, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _split(project)
    md = tmp_path / "seq.md"
    code = main(
        [
            "compare", "--sequential", "--baseline", "base", "--candidate", "cand",
            "--dataset", str(project.dataset), "--variants-dir", str(project.variants),
            "--judge", "fake:gate-judge/text", "--db", db_url, "--markdown", str(md),
        ]
    )  # fmt: skip
    text = capsys.readouterr().out
    assert code == 1 and "INCONCLUSIVE" in text and f"- {FUTILE_TEXT}" in text
    assert f"- {FUTILE_TEXT}" in md.read_text()
    compare(project, db_url)  # a rerun: the stored evidence replayed to the same stop
    report = _json(capsys)
    assert report["futile"] and report["decision"] == "undecided"
    assert report["stopped_because"].startswith(FUTILE_TEXT)
    assert 10 <= report["cases_used"] < 40 and report["savings"]["saved_judge_calls"] > 0
    assert report["plan"]["boundary"] == "spending" and report["plan"]["futility"] == 0.02
    assert report["agent_calls"] == 0 and report["judge_calls"] == 0  # nothing new ran
    assert report["plan"]["continued"] == 1
    assert len(report["plan"]["evidence"]) == report["cases_used"]


def test_replay_gives_the_same_futility_stop(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _split(project)
    compare(project, db_url)
    first = _json(capsys)
    compare(project, db_url)
    again = _json(capsys)
    assert first["futile"] and again["futile"]
    assert again["stopped_because"] == first["stopped_because"]
    assert again["trace"] == first["trace"] and again["cases_used"] == first["cases_used"]


def test_the_gate_reports_a_futility_stop(project: Project, db_url: str) -> None:
    _split(project)
    _, doc = gate(project, db_url)
    assert doc["compare"]["futile"] and doc["compare"]["verdict"] == "inconclusive"
    assert doc["compare"]["cases_used"] < 40
    markdown = (project.root / "reports" / "gate.md").read_text()
    assert FUTILE_TEXT in markdown and "plan: spending boundary" in markdown


def test_the_plan_stores_and_reloads_its_boundary(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _split(project)
    compare(project, db_url, "--boundary", "anytime")
    report = _json(capsys)
    assert not report["futile"] and report["cases_used"] == 40  # no futility stop on anytime
    assert "95% anytime-valid interval" in report["summary"]
    assert any("plan: anytime boundary (betting sequence" in r for r in report["reasons"])
    stored = load_plan(Store(db_url), report["plan"]["key"])
    assert stored is not None and stored.boundary == "anytime"
    compare(project, db_url, "--boundary", "spending")
    err = capsys.readouterr().err
    assert "--boundary" in err and "continues a stored sequence" in err


def test_a_plan_stored_without_a_boundary_loads_as_anytime() -> None:
    plan = start_plan(_request(boundary=None))
    assert plan.boundary == "spending"
    old = plan.model_dump(mode="json")
    del old["boundary"], old["futility"]
    assert SequencePlan.model_validate(old).boundary == "anytime"


def test_a_larger_budget_is_refused_under_spending_with_what_to_do(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _split(project)
    compare(project, db_url, "--max-cases", "3")
    assert _json(capsys)["plan"]["first_budget"] == 3
    code, _ = compare(project, db_url, "--max-cases", "20")
    err = capsys.readouterr().err
    assert code == 2 and "budget of 3 cases" in err and "--max-cases 3" in err
    assert "--boundary anytime" in err and "from the start" in err
    code, _ = compare(project, db_url, "--max-cases", "3")
    again = _json(capsys)
    assert again["plan"]["continued"] == 1 and again["cases_used"] == 3


def _request(**change: object) -> PlanRequest:
    ids = [f"c{i}" for i in range(100)]
    asked: dict[str, Any] = {
        "key": "k", "seed": None, "derived_seed": 5, "case_ids": ids,
        "case_hashes": {c: "h" for c in ids}, "alpha": 0.05, "margin": 0.05,
        "max_cases": None, "question": "three-way", "finite": False, "repeats": 1,
    }  # fmt: skip
    return PlanRequest.model_validate({**asked, **change})


def test_the_drivers_rule_keeps_false_better_within_alpha_over_2() -> None:
    # equal variants, a tie-prone three-point outcome, 100 cases, a look after each one,
    # through the driver's own rule (the plan's sequence, stop_codes: spending + futility)
    plan = start_plan(_request())
    boundary, runs = plan.boundary_plan(), 8000
    assert boundary.boundary == "spending" and boundary.budget == 100
    rng = np.random.default_rng(2026)
    x = rng.choice([0.0, 0.5, 1.0], p=[0.35, 0.3, 0.35], size=(runs, plan.budget))
    cs = plan.sequence(sequences=runs)
    first = np.full(runs, OPEN)
    used = np.full(runs, plan.budget)
    for t in range(plan.budget):
        cs.update(x[:, t])
        codes = stop_codes(cs, boundary, seen=t + 1, budget=plan.budget, question="three-way")
        new = (first == OPEN) & (codes != OPEN)
        first[new], used[new] = codes[new], t + 1
    false_better = float(np.mean(first == BETTER))
    assert false_better <= 0.025 + 3 * math.sqrt(0.025 * 0.975 / runs)  # 3 MC s.e.: 0.52%
    assert np.mean(first == FUTILE) > 0.5 and used.mean() < 0.8 * plan.budget


def test_finite_keeps_the_betting_sequence() -> None:
    from arena.errors import InputError
    from arena.sequential import BettingCS

    plan = start_plan(_request(finite=True))
    assert plan.boundary == "anytime" and isinstance(plan.sequence(), BettingCS)
    assert "without replacement" in plan.describe()
    with pytest.raises(InputError) as error:
        start_plan(_request(finite=True, boundary="spending"))
    assert error.value.field == "--boundary"


def test_the_futility_threshold_is_a_flag_and_part_of_the_plan(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--futility 0` turns futility stops off (the split pair then runs its whole budget
    undecided); a rerun asking another threshold is refused, naming the flag."""
    _split(project)
    code, _ = compare(project, db_url, "--futility", "0")
    report = _json(capsys)
    assert code == 1 and not report["futile"] and report["plan"]["futility"] == 0
    assert report["cases_used"] == 40 and report["decision"] == "undecided"
    code, _ = compare(project, db_url, "--futility", "0.1")
    assert code == 2
    err = capsys.readouterr().err
    assert "futility threshold" in err and "--futility" in err

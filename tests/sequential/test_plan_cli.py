"""The stored plan through the CLI: a continued run continues the same sequence or is refused,
the seed comes from the run, --finite refuses stochastic outcomes, alpha comes from the
configuration, and every report prints the plan."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main
from arena.models import register_fake
from tests.gate.conftest import Project
from tests.sequential.test_sequential_cli import GOOD, MANY, _json, _many, compare, gate

pytestmark = pytest.mark.unit


def test_a_larger_max_cases_continues_the_same_sequence(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _many(project)
    compare(project, db_url, "--max-cases", "3", "--boundary", "anytime")
    first = _json(capsys)
    assert first["decision"] == "undecided" and first["plan"]["horizon"] == 1
    compare(project, db_url, "--max-cases", "40")
    again = _json(capsys)
    plan = again["plan"]
    assert plan["horizon"] == 1 and plan["first_budget"] == 3 and plan["budget"] == 40
    assert plan["continued"] == 1 and plan["order"] == first["plan"]["order"]
    # the carried outcomes are replayed with the same bets: the same intervals, not re-bet
    assert again["trace"][:3] == first["trace"]
    assert again["agent_calls"] == 2 * (again["cases_used"] - 3)
    assert again["verdict"] == "worse"


def test_a_grown_dataset_continues_after_the_cases_already_seen(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.write_dataset(MANY[:10])
    project.variant("base", GOOD)
    project.variant("cand", {k: "no" for k in GOOD})
    compare(project, db_url, "--max-cases", "2", "--boundary", "anytime")
    first = _json(capsys)
    project.write_dataset(MANY, version="1.1.0")
    compare(project, db_url)
    again = _json(capsys)
    assert again["run_id"] != first["run_id"]  # a new dataset version is a new run
    assert again["plan"]["order"][:10] == first["plan"]["order"]
    assert again["trace"][:2] == first["trace"] and again["plan"]["seed"] == first["plan"]["seed"]


@pytest.mark.parametrize(
    ("extra", "flag"), [(["--alpha", "0.01"], "--alpha"), (["--seed", "5"], "--seed")]
)
def test_a_continuation_that_changes_the_plan_is_refused(
    project: Project,
    db_url: str,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    flag: str,
) -> None:
    _many(project)
    compare(project, db_url, "--max-cases", "2")
    capsys.readouterr()
    code, _ = compare(project, db_url, *extra)
    err = capsys.readouterr().err
    assert code == 2 and flag in err and "continues a stored sequence" in err


def test_the_seed_is_derived_from_the_run_and_an_explicit_one_is_shown(
    project: Project, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _many(project)
    md = tmp_path / "seq.md"
    code = main(
        [
            "compare", "--sequential", "--baseline", "base", "--candidate", "cand",
            "--dataset", str(project.dataset), "--variants-dir", str(project.variants),
            "--judge", "none", "--db", db_url, "--alpha", "0.025", "--markdown", str(md),
        ]
    )  # fmt: skip
    text = capsys.readouterr().out
    assert code == 1 and "derived from the run" in text and "97.5% known-horizon" in text
    assert "plan: spending boundary (Lan-DeMets O'Brien-Fleming, valid up to the planned " in text
    assert "budget of 40 cases, alpha 0.025; futility stop under 2%)" in text
    assert "alpha 0.025 (97.5% intervals), margin 0.05, budget 40" in text
    assert "derived from the run" in md.read_text()
    other = tmp_path / "other.db"
    compare(project, f"sqlite:///{other}", "--seed", "4")
    report = _json(capsys)
    assert report["plan"]["seed"] == 4 and report["plan"]["seed_source"] == "explicit"
    assert any("(explicit --seed)" in r for r in report["reasons"])


def test_finite_refuses_a_judge_whose_two_orders_disagree(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _many(project)
    register_fake("first-wins", [lambda messages: "[[A>B]]"], cycle=True)
    args = ["--judge", "fake:first-wins/text", "--finite", "--max-cases", "4"]
    code, _ = compare(project, db_url, *args)
    err = capsys.readouterr().err
    assert code == 2 and "--finite" in err and "two orders disagree" in err
    assert "--allow-stochastic-finite" in err
    code, _ = compare(project, db_url, *args, "--allow-stochastic-finite")
    report = _json(capsys)
    assert "realised outcomes" in report["population"]
    assert any("realised outcomes" in r for r in report["reasons"])


def test_the_gate_uses_rules_alpha_and_prints_the_plan(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.write_dataset(MANY)
    project.variant("base", {k: "no" for k in GOOD})
    project.variant("cand", GOOD)
    code, doc = gate(project, db_url, "--alpha", "0.025")
    assert code == 0
    assert doc["compare"]["alpha"] == 0.025 and doc["compare"]["plan"]["alpha"] == 0.025
    assert "97.5% known-horizon" in doc["compare"]["summary"]
    assert doc["compare"]["plan"]["boundary"] == "spending"
    markdown = (project.root / "reports" / "gate.md").read_text()
    assert "plan: spending boundary" in markdown and "alpha 0.025 (97.5% intervals)" in markdown
    assert "97.5% interval" in markdown and "95% interval" not in markdown
    assert doc["compare"]["plan"]["seed_source"] == "derived"

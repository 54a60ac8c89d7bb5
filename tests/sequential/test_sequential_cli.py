"""`arena compare --sequential` and `arena gate --sequential` on scripted models: where and why
they stop, the critical block, resume of a stopped run, and the reports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.storage import Store
from tests.gate.conftest import CASES, Project, answers

pytestmark = pytest.mark.unit

#: Forty standard cases: enough for a clear difference to settle before the end.
MANY: list[dict[str, Any]] = [
    {
        "id": f"S-{i}",
        "input": f"Question {i} #S-{i}",
        "category": "happy_path",
        "expected_output_contains": ["beta"],
    }
    for i in range(1, 41)
]
GOOD = {str(c["id"]): "beta" for c in MANY}


def _many(project: Project) -> None:
    project.write_dataset(MANY)
    project.variant("base", GOOD)
    project.variant("cand", {k: "no" for k in GOOD})  # loses every case


def compare(project: Project, db: str, *extra: str) -> tuple[int, dict[str, Any]]:
    code = main(
        [
            "compare",
            "--sequential",
            "--baseline",
            "base",
            "--candidate",
            "cand",
            "--dataset",
            str(project.dataset),
            "--variants-dir",
            str(project.variants),
            "--judge",
            "fake:gate-judge/text",
            "--json",
            "--db",
            db,
            *extra,
        ]
    )
    return code, {}


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    return json.loads(capsys.readouterr().out)


def test_a_clearly_worse_candidate_stops_early_with_the_savings(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _many(project)
    code, _ = compare(project, db_url)
    report = _json(capsys)
    assert code == 1 and report["verdict"] == "worse"
    assert 3 <= report["cases_used"] < 40 and report["cases_total"] == 40
    assert report["upper"] < 0.45 and len(report["trace"]) == report["cases_used"]
    assert report["stopped_because"].startswith("the interval")
    used = report["cases_used"]
    assert report["agent_calls"] == 2 * used and report["judge_calls"] == 2 * used
    savings = report["savings"]
    assert savings["full_agent_calls"] == 80 and savings["saved_agent_calls"] == 2 * (40 - used)
    assert savings["saved_judge_calls"] == 2 * (40 - used)
    stored = Store(db_url)
    assert stored.run(report["run_id"]).status == "stopped"  # an ordinary stopped run
    assert len(stored.results(report["run_id"])) == 2 * used


def test_a_rerun_resumes_the_stopped_run_from_the_cache(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _many(project)
    # the anytime boundary lets a rerun raise the budget (the stored sequence keeps it)
    compare(project, db_url, "--max-cases", "2", "--boundary", "anytime")
    first = _json(capsys)
    assert first["decision"] == "undecided" and first["cases_used"] == 2
    assert first["stopped_because"].startswith("undecided at the budget")
    compare(project, db_url)
    again = _json(capsys)
    assert again["run_id"] == first["run_id"] and again["verdict"] == "worse"
    # the first two cases came from the stored run: no call was sent for them again
    assert again["agent_calls"] == 2 * (again["cases_used"] - 2)
    assert [p["case_id"] for p in again["trace"][:2]] == [p["case_id"] for p in first["trace"]]


def test_the_order_is_seeded_and_the_markdown_lists_the_sequence(
    project: Project, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _many(project)
    md = tmp_path / "seq.md"
    compare(project, db_url, "--seed", "3", "--markdown", str(md))
    report = _json(capsys)
    from arena.compare.sequential._trace import case_order

    assert [p["case_id"] for p in report["trace"]] == case_order(GOOD, 3)[: report["cases_used"]]
    text = md.read_text()
    assert "**worse** (sequential)" in text and "| 1 | `" in text


def test_equal_variants_run_to_the_budget_undecided(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.write_dataset(MANY[:8])
    project.variant("base", GOOD)
    project.variant("cand", GOOD)
    code, _ = compare(project, db_url, "--judge", "none")  # golden scores: all ties
    report = _json(capsys)
    assert code == 1 and report["verdict"] == "inconclusive" and report["cases_used"] == 8
    assert report["judge"] is None and report["judge_calls"] == 0


def gate(project: Project, db: str, *extra: str) -> tuple[int, dict[str, Any]]:
    project.config()
    reports = project.root / "reports"
    code = main(
        [
            "gate",
            "--config",
            str(project.root / "arena.yaml"),
            "--report-dir",
            str(reports),
            "--db",
            db,
            "--baseline",
            "base",
            "--candidate",
            "cand",
            "--sequential",
            *extra,
        ]
    )
    return code, json.loads((reports / "gate.json").read_text())


def test_strict_mode_blocks_at_the_first_broken_critical_case(
    project: Project, db_url: str
) -> None:
    project.write_dataset(CASES)
    project.variant("base", answers())
    project.variant("cand", answers(C_1="I will not look it up", C_2="no"))
    code, doc = gate(project, db_url, "--strict-critical")
    assert code == 1 and not doc["passed"]
    compare_doc = doc["compare"]
    assert compare_doc["verdict"] == "worse" and compare_doc["critical_failures"]
    assert "deterministic (strict mode" in compare_doc["stopped_because"]
    order = compare_doc["plan"]["order"]
    first_critical = next(i for i, c in enumerate(order) if c.startswith("C-"))
    assert compare_doc["cases_used"] == first_critical + 1  # nothing run after it
    assert any("critical_broken" in f for f in doc["failures"])


def test_one_failed_critical_run_is_not_evidence_without_strict_mode(
    project: Project, db_url: str
) -> None:
    project.write_dataset(CASES)
    project.variant("base", answers())
    project.variant("cand", answers(C_1="I will not look it up", C_2="no"))
    code, doc = gate(project, db_url)
    compare_doc = doc["compare"]
    # one repeat: the failures are tested (an exact test cannot reject on 1 of 1 vs 0 of 1)
    assert compare_doc["critical_failures"] == []
    assert compare_doc["plan"]["critical_tested"]
    assert "critical" not in compare_doc["stopped_because"]
    # the gate's own regression rules still see the broken critical cases
    assert code == 1 and any("critical_broken" in f for f in doc["failures"])


def test_the_gate_passes_a_clearly_better_candidate_early(project: Project, db_url: str) -> None:
    project.write_dataset(MANY)
    project.variant("base", {k: "no" for k in GOOD})
    project.variant("cand", GOOD)
    code, doc = gate(project, db_url)
    assert code == 0 and doc["passed"]
    assert doc["compare"]["verdict"] in ("better", "non-inferior")
    assert doc["compare"]["cases_used"] < 40


def _arena_run(project: Project, db: str, names: list[str]) -> None:
    from tests.support.cli_args import run_argv

    files = [project.variants / f"{n}.yaml" for n in names]
    assert main(run_argv(files, project.dataset, db)) == 0


def test_adaptive_judging_stops_once_the_top_is_separated_within_budget(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project.write_dataset(MANY[:30])
    project.variant("best", GOOD)
    for name in ("bad1", "bad2", "bad3"):
        project.variant(name, {k: "no" for k in GOOD})
    _arena_run(project, db_url, ["best", "bad1", "bad2", "bad3"])
    capsys.readouterr()
    base = ["judge", "--judge", "fake:gate-judge/text", "--pairs", "adaptive", "--db", db_url]
    assert main([*base, "--budget", "5", "--json"]) == 0
    first = _json(capsys)
    assert first["judged_now"] == 5 and "budget of 5" in first["stopped_because"]
    assert main([*base, "--json"]) == 0  # resumes from the stored battles
    report = _json(capsys)
    assert report["separated"] and report["ranking"][0] == "best"
    assert report["battles"] == 5 + report["judged_now"]
    assert report["battles"] < report["all_pairs"] / 2 and report["all_pairs"] == 6 * 30
    # the stored battles are ordinary: `arena ratings` ranks the best first
    assert main(["ratings", "--json", "--db", db_url]) == 0
    board = json.loads(capsys.readouterr().out)
    assert board["entries"][0]["variant"] == "best"


def test_a_failed_case_is_skipped_then_retried_with_retry_errors(
    project: Project, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.models import register_fake

    project.write_dataset(MANY[:6])
    project.variant("base", GOOD)
    broken = {"on": True}

    def flaky(messages: list[Any]) -> str:
        if broken["on"] and str(messages[-1].content).endswith("#S-2"):
            raise RuntimeError("the model fell over")
        return "no"

    register_fake("flaky-cand", [flaky], cycle=True)
    (project.variants / "cand.yaml").write_text(
        "name: cand\nmodel: {spec: 'fake:flaky-cand'}\ntools: []\n"
    )
    compare(project, db_url, "--judge", "none")
    first = _json(capsys)
    assert first["cases_skipped"] == ["S-2"] and "S-2" in " ".join(first["reasons"])
    assert "S-2" not in [p["case_id"] for p in first["trace"]]
    broken["on"] = False
    compare(project, db_url, "--judge", "none")  # errors are kept without --retry-errors
    assert _json(capsys)["cases_skipped"] == ["S-2"]
    compare(project, db_url, "--judge", "none", "--retry-errors")
    again = _json(capsys)
    assert again["cases_skipped"] == [] and "S-2" in [p["case_id"] for p in again["trace"]]


@pytest.mark.parametrize(
    ("extra", "flag"), [(["--run", "1"], "--run"), (["--batch", "0"], "--batch")]
)
def test_bad_sequential_flags_are_bad_input(
    project: Project, db_url: str, extra: list[str], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _many(project)
    code, _ = compare(project, db_url, *extra)
    assert code == 2 and flag in capsys.readouterr().err

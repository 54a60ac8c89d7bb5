"""`arena golden lint`: duplicates, small categories, missing references, hand edits, and,
against stored runs, saturated, broken and non-separating cases."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from arena.cli import main
from arena.curation._grow import promote_case
from arena.curation._lint import lint_dataset, scores_for_lint
from arena.golden import load_dataset
from arena.models import register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit


def _case(case_id: str, query: str, category: str = "happy_path", **extra: Any) -> dict[str, Any]:
    return {"id": case_id, "input": query, "category": category, "reference_answer": "ref", **extra}


def _write(path: Path, cases: list[dict[str, Any]]) -> Path:
    path.write_text(
        json.dumps(
            {"name": "lint", "available_tools": ["calculate"], "test_cases": cases}, indent=2
        )
    )
    return path


def _rules(report: Any) -> dict[str, list[str]]:
    return {f.rule: f.cases for f in report.findings}


def test_static_rules(tmp_path: Path) -> None:
    cases = [
        _case("A-1", "What is the capital of France?"),
        _case("A-2", "what is the capital of  france"),  # same query: case, spaces, "?"
        _case("A-3", "Look up the price of Bitcoin and Ethereum, then calculate the difference"),
        _case("A-4", "Look up the price of Bitcoin and Ethereum, and calculate the difference"),
        _case("A-5", "Tell me a joke", reference_answer=None),  # a task case, no reference
        _case(
            "B-1",
            "Refuse this",
            "graceful_failure",
            expected_behavior="refuse",
            reference_answer=None,
        ),  # behaviour cases need no reference answer
        _case("B-2", "And this", "graceful_failure", tier="pending"),
    ]
    report = lint_dataset(load_dataset(_write(tmp_path / "d.json", cases)))
    rules = _rules(report)
    assert rules["duplicate_query"] == ["A-1", "A-2"]
    assert rules["near_duplicate"] == ["A-3", "A-4"]
    assert rules["missing_reference"] == ["A-5"]
    assert rules["small_category"] == ["B-1"]  # happy_path has 5; graceful 1 counted + 1 pending
    small = next(f for f in report.findings if f.rule == "small_category")
    assert "1 counted case(s) (1 pending)" in small.message
    assert report.errors == 1 and report.findings[0].severity == "error"


def test_the_shipped_dataset_has_no_errors(golden_path: Path) -> None:
    report = lint_dataset(load_dataset(golden_path))
    assert report.errors == 0
    assert set(_rules(report)) == {"missing_reference"}


def test_a_hand_edit_after_a_recorded_version_is_flagged(tmp_path: Path) -> None:
    path = _write(tmp_path / "d.json", [_case(f"A-{i}", f"query number {i}") for i in range(4)])
    promote_case(path, "A-1", "critical")  # records the content hash
    assert "content_hash" not in _rules(lint_dataset(load_dataset(path)))
    raw = json.loads(path.read_text())
    raw["test_cases"][0]["input"] = "edited by hand"
    path.write_text(json.dumps(raw))
    assert "content_hash" in _rules(lint_dataset(load_dataset(path)))


# -- against runs ------------------------------------------------------------------------------

RUN_CASES = [
    _case("SAT", "Say hi #SAT", expected_output_contains=["hi"]),
    _case("BRK", "Name a zebra #BRK", expected_output_contains=["zebra"]),
    _case("SEP", "Six times seven? #SEP", expected_output_contains=["42"]),
    _case("FLAT", "Flip a coin #FLAT", expected_output_contains=["heads"]),
    _case("PEND", "Pending one #PEND", tier="pending", expected_output_contains=["never"]),
]
GOOD = {"SAT": "hi", "BRK": "a horse", "SEP": "42", "PEND": "no"}
BAD = {"SAT": "hi", "BRK": "a horse", "SEP": "no idea", "PEND": "no"}


def _answers(table: dict[str, str]) -> Any:
    flips: Counter[str] = Counter()

    def reply(messages: list[BaseMessage]) -> str:
        case = re.search(r"#(\w+)", str(messages[-1].content))
        assert case is not None
        if case.group(1) == "FLAT":  # every variant: heads on one repeat, tails on the other
            flips["n"] += 1
            return "heads" if flips["n"] % 2 else "tails"
        return table[case.group(1)]

    return reply


def _run(tmp_path: Path, store: Store) -> tuple[Path, int]:
    path = _write(tmp_path / "d.json", RUN_CASES)
    variants = []
    for name, table in (("good", GOOD), ("bad", BAD)):
        register_fake(f"lint-{name}", [_answers(table)], cycle=True)
        variants.append(
            Variant.model_validate(
                {"name": name, "tools": [], "model": {"spec": f"fake:lint-{name}"}}
            )
        )
    report = run_suite(
        store, load_dataset(path), variants, RunOptions(progress=False, repeats=2, concurrency=1)
    )
    return path, report.run_id


def test_run_rules(tmp_path: Path, store: Store) -> None:
    path, run_id = _run(tmp_path, store)
    dataset = load_dataset(path)
    scores, stale = scores_for_lint(store, [run_id], dataset)
    assert not stale and len(scores) == 2 * 2 * len(RUN_CASES)
    report = lint_dataset(dataset, scores, [run_id])
    rules = _rules(report)
    assert rules["saturated"] == ["SAT"]
    assert rules["no_separation"] == ["FLAT"]
    broken = [f for f in report.findings if f.rule == "always_fails"]
    assert {(f.severity, tuple(f.cases)) for f in broken} == {
        ("error", ("BRK",)),
        ("warning", ("PEND",)),
    }
    assert "SEP" not in json.dumps([f.cases for f in report.findings])


def test_promoting_keeps_results_but_editing_a_query_makes_them_stale(
    tmp_path: Path, store: Store
) -> None:
    path, run_id = _run(tmp_path, store)
    promote_case(path, "PEND", "standard")
    scores, stale = scores_for_lint(store, [run_id], load_dataset(path))
    assert not stale and {s.case_id for s in scores} >= {"PEND"}
    raw = json.loads(path.read_text())
    raw["test_cases"][0]["input"] = "Say hello #SAT"
    path.write_text(json.dumps(raw))
    scores, stale = scores_for_lint(store, [run_id], load_dataset(path))
    assert set(stale) == {"SAT"} and "SAT" not in {s.case_id for s in scores}


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_cli_exit_codes(tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    path, run_id = _run(tmp_path, Store(db_url))
    assert main(["golden", "lint", str(path)]) == 0  # warnings only without runs
    capsys.readouterr()
    assert main(["golden", "lint", str(path), "--run", str(run_id), "--db", db_url]) == 1
    out = capsys.readouterr().out
    assert "1 error(s)" in out and "always_fails" in out and "BRK" in out
    assert main(["golden", "lint", str(path), "--run", str(run_id), "--db", db_url, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["errors"] == 1 and doc["runs"] == [run_id]
    assert main(["golden", "lint", str(path), "--run", "99", "--db", db_url]) == 2
    assert "99" in capsys.readouterr().err
    assert main(["golden", "lint", str(tmp_path / "missing.json")]) == 2

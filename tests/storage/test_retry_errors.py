"""Retrying an errored result replaces it and its scores atomically (issue 9, defect 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

from arena.battles import Battle
from arena.cli import main
from arena.errors import ModelError
from arena.models import ModelConfig, register_fake
from arena.records.results import RunResult
from arena.scoring import CaseScore
from arena.storage import Store
from judges import JudgeSpec

pytestmark = pytest.mark.unit

FLAKY = {"down": True}


def _reply(messages: list[BaseMessage]) -> str:
    question = str(messages[-1].content)
    if FLAKY["down"] and "#C-2" in question:
        raise ModelError("the endpoint refused the request")
    return "The answer is 300." if "#C-1" in question else "It is 42."


def _files(tmp_path: Path) -> tuple[Path, Path]:
    cases = [
        {
            "id": "C-1",
            "input": "What's 25% of 1200? #C-1",
            "category": "happy_path",
            "tier": "critical",
            "expected_output_contains": ["300"],
        },
        {
            "id": "C-2",
            "input": "What is six times seven? #C-2",
            "category": "happy_path",
            "tier": "critical",
            "expected_output_contains": ["42"],
        },
    ]
    dataset = tmp_path / "golden.json"
    dataset.write_text(
        json.dumps({"name": "retry", "available_tools": ["calculate"], "test_cases": cases})
    )
    variant = tmp_path / "flaky.yaml"
    variant.write_text("name: flaky\nmodel: {spec: 'fake:retry-flaky'}\ntools: []\n")
    return dataset, variant


def test_retry_errors_after_score_replaces_result_and_scores(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    register_fake("retry-flaky", [_reply], cycle=True)
    FLAKY["down"] = True
    dataset, variant = _files(tmp_path)
    run = ["run", "--variants", str(variant), "--dataset", str(dataset), "--db", db_url, "--json"]
    assert main(run) == 0
    first = json.loads(capsys.readouterr().out)
    failed = {r["case_id"]: r for r in first["results"]}["C-2"]
    assert failed["error"] and "refused" in failed["error"]
    assert main(["score", "--json", "--db", db_url]) == 0
    capsys.readouterr()
    store = Store(db_url)
    grader, before = store.scores(first["run_id"])
    assert {s.result_id for s in before} == {r["id"] for r in first["results"]}

    FLAKY["down"] = False
    assert main([*run, "--retry-errors"]) == 0  # used to die on the scores' foreign key
    again = json.loads(capsys.readouterr().out)
    retried = {r["case_id"]: r for r in again["results"]}["C-2"]
    assert retried["error"] is None and retried["output"] == "It is 42."
    assert again["reused_results"] == 1 and again["model_calls"] >= 1
    info = store.run(first["run_id"])
    assert info.status == "finished" and info.results == 2 and info.errors == 0
    stored = {r.case_id: r for r in store.results(first["run_id"])}
    assert stored["C-2"].output == "It is 42." and stored["C-2"].error is None
    # The stale score of the failed answer is gone with it; the other score stays.
    _, after = store.scores(first["run_id"], grader)
    assert {s.result_id for s in after} == {stored["C-1"].id}
    assert main(["score", "--json", "--db", db_url]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["variants"][0]["pass_rate"] == 1.0


def _result(run_id: int, output: str, error: str | None) -> RunResult:
    return RunResult(
        run_id=run_id,
        variant="v",
        variant_hash="h",
        case_id="C-1",
        case_hash="c",
        repeat=0,
        output=output,
        error=error,
    )


def _score(result: RunResult) -> CaseScore:
    return CaseScore(
        result_id=result.id,
        variant=result.variant,
        variant_hash=result.variant_hash,
        case_id=result.case_id,
        category="happy_path",
        tier="critical",
        repeat=0,
        score=0.0,
        passed=False,
    )


def _store_with_run(store: Store, golden_path: Path) -> int:
    from arena.golden import load_dataset

    dataset_id = store.ensure_dataset(load_dataset(golden_path))
    run_id, _ = store.open_run("k", dataset_id, {"variants": {}})
    return run_id


def test_replacing_an_errored_result_drops_its_scores_and_battles(
    store: Store, golden_path: Path
) -> None:
    run_id = _store_with_run(store, golden_path)
    bad = _result(run_id, "", "Timeout")
    bad.id = store.save_result(bad)
    other = RunResult(
        **{**_result(run_id, "fine", None).model_dump(), "variant": "w", "variant_hash": "w"}
    )
    other.id = store.save_result(other)
    store.save_scores(run_id, "keywords", [_score(bad), _score(other)])
    spec = JudgeSpec(model=ModelConfig(spec="fake:j"))
    store.save_battle(
        Battle(
            run_id=run_id,
            case_id="C-1",
            variant_a="v",
            variant_b="w",
            hash_a="h",
            hash_b="w",
            result_a_id=bad.id,
            result_b_id=other.id,
            winner="model_b",
            judge=spec,
        )
    )

    new_id = store.save_result(_result(run_id, "a real answer", None))
    assert new_id == bad.id  # replaced in place: nothing else refers to a vanished id
    assert store.result(new_id).output == "a real answer"
    assert [s.result_id for s in store.scores(run_id, "keywords")[1]] == [other.id]
    assert store.battles(run_id) == []


def test_a_finished_result_is_never_replaced_or_duplicated(store: Store, golden_path: Path) -> None:
    run_id = _store_with_run(store, golden_path)
    first = store.save_result(_result(run_id, "first answer", None))
    assert store.save_result(_result(run_id, "", "a late failure")) == first
    assert store.save_result(_result(run_id, "second answer", None)) == first
    (only,) = store.results(run_id)
    assert only.output == "first answer" and only.error is None

"""Contract test: `arena run --langsmith` and `arena langsmith push` against a recording
LangSmith look-alike on 127.0.0.1; every payload is checked against the SDK's own schemas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langsmith import schemas as ls

from arena.cli import main
from arena.evaluation.run_scores import load_run_scores
from arena.langsmith._examples import case_to_example
from arena.storage import Store
from tests.langsmith.fake_langsmith import TENANT, FakeLangSmith
from tests.langsmith.helpers import DATASET, write_files
from tests.support.cli_args import run_argv

pytestmark = pytest.mark.unit


def _roots(server: FakeLangSmith) -> dict[str, dict[str, Any]]:
    return {rid: run for rid, run in server.runs().items() if not run.get("parent_run_id")}


def _run_and_push(tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]) -> int:
    dataset, variants = write_files(tmp_path)
    assert main(run_argv(variants, dataset, db_url, "--langsmith", "--json")) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [e["created"] for e in doc["langsmith"]["experiments"]] == [True, True]
    return int(doc["run_id"])


def test_run_langsmith_records_experiments_and_golden_feedback(
    tmp_path: Path, db_url: str, langsmith_env: FakeLangSmith, capsys: pytest.CaptureFixture[str]
) -> None:
    server = langsmith_env
    run_id = _run_and_push(tmp_path, db_url, capsys)
    store = Store(db_url)

    # the dataset and its examples
    (dataset,) = server.datasets.values()
    ls.Dataset(**dataset)
    assert dataset["name"] == "ls-contract" and dataset["metadata"]["arena_version"] == "2.1.0"
    examples = {e["metadata"]["case_id"]: e for e in server.examples.values()}
    for case in DATASET.test_cases:
        example = ls.Example(**examples[case.id])
        expected = case_to_example(case, DATASET)
        assert example.inputs == {"query": case.input} == expected["inputs"]
        assert example.outputs == expected["outputs"]
        assert example.metadata is not None
        assert {k: example.metadata[k] for k in ("category", "tier", "difficulty")} == {
            "category": case.category,
            "tier": case.tier.value,
            "difficulty": case.difficulty.value,
        }
    assert examples["C-1"]["metadata"]["tags"] == ["math"]

    # one experiment per variant, on that dataset
    sessions = {s["name"].split(" ")[0]: s for s in server.sessions.values()}
    assert set(sessions) == {"good", "bad"}
    for name, session in sessions.items():
        project = ls.TracerSession(**session)
        assert str(project.reference_dataset_id) == dataset["id"]
        assert project.metadata["variant"] == name and project.metadata["arena_run_id"] == run_id
        assert project.metadata["variant_hash"] in session["name"]

    # one run per result, linked to its example, child tool runs for the trajectory
    roots = _roots(server)
    results = {(r.variant, r.case_id): r for r in store.results(run_id)}
    assert len(roots) == len(results) == 4
    for run in roots.values():
        parsed = ls.Run(**run)
        meta = parsed.metadata
        result = results[(meta["variant"], meta["case_id"])]
        assert str(parsed.reference_example_id) == examples[result.case_id]["id"]
        assert parsed.outputs is not None and parsed.outputs["output"] == result.output
        assert parsed.inputs == {"query": DATASET.case(result.case_id).input}
        assert meta["arena_run_id"] == run_id and meta["variant_hash"] == result.variant_hash
        assert meta["repeat"] == 0 and f"arena-run:{run_id}" in (parsed.tags or [])
        assert run["session_name"] == sessions[meta["variant"]]["name"]
    tools = [ls.Run(**r) for r in server.runs().values() if r.get("parent_run_id")]
    assert [(t.name, t.run_type, t.inputs) for t in tools] == [
        ("calculate", "tool", {"expression": "0.25 * 1200"})
    ]
    assert tools[0].outputs == {"output": "300"}

    # golden scores as feedback, on the right run and experiment
    scores = {(s.variant, s.case_id): s for s in load_run_scores(store, run_id).cases}
    by_run: dict[str, dict[str, ls.FeedbackCreate]] = {}
    for body in server.feedback():
        feedback = ls.FeedbackCreate(**body)
        by_run.setdefault(str(feedback.run_id), {})[feedback.key] = feedback
    assert set(by_run) == set(roots)
    for run_id_, run in roots.items():
        meta = run["extra"]["metadata"]
        score = scores[(meta["variant"], meta["case_id"])]
        keys = by_run[run_id_]
        # the SDK rounds scores to 4 decimals, the most the API stores
        assert keys["golden_score"].score == pytest.approx(score.score, abs=5e-5)
        assert keys["golden_pass"].score == float(score.passed)
        assert {k for k in keys if k not in ("golden_score", "golden_pass")} == {
            f"golden_{c}" for c in score.components if "." not in c
        }
        assert str(keys["golden_score"].session_id) == sessions[meta["variant"]]["id"]
        assert "grader: keywords" in (keys["golden_score"].comment or "")
    assert not server.comparative  # nothing judged yet


def test_push_after_judging_adds_a_comparative_experiment_once(
    tmp_path: Path, db_url: str, langsmith_env: FakeLangSmith, capsys: pytest.CaptureFixture[str]
) -> None:
    server = langsmith_env
    run_id = _run_and_push(tmp_path, db_url, capsys)
    runs_before, feedback_before = len(server.runs()), len(server.feedback())
    assert main(["judge", str(run_id), "--judge", "fake:ls-judge/text", "--db", db_url]) == 0
    capsys.readouterr()
    assert main(["langsmith", "push", str(run_id), "--db", db_url, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [e["created"] for e in doc["experiments"]] == [False, False]  # left as they were
    assert len(server.runs()) == runs_before  # no run sent twice
    (comparison,) = server.comparative
    parsed = ls.ComparativeExperiment(**comparison)
    assert str(parsed.tenant_id) == TENANT and parsed.metadata["judge"] == "fake:ls-judge/text"
    assert {str(e) for e in comparison["experiment_ids"]} == {
        s["id"] for s in server.sessions.values()
    }
    preferences = [ls.FeedbackCreate(**b) for b in server.feedback()[feedback_before:]]
    assert len(preferences) == 2 * 2 and {p.key for p in preferences} == {"preference"}
    roots = _roots(server)
    for feedback in preferences:
        variant = roots[str(feedback.run_id)]["extra"]["metadata"]["variant"]
        assert feedback.score == (1.0 if variant == "good" else 0.0)
        assert str(feedback.comparative_experiment_id) == comparison["id"]
    groups = {p.feedback_group_id for p in preferences}
    assert len(groups) == 2  # one group per battle, shared by its two runs
    # pushing again sends nothing new
    assert main(["langsmith", "push", str(run_id), "--db", db_url]) == 0
    assert "already there" in capsys.readouterr().out
    assert len(server.feedback()) == feedback_before + 4 and len(server.comparative) == 1


def test_langsmith_needs_a_key_and_nothing_runs_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    dataset, variants = write_files(tmp_path)
    db = tmp_path / "never.db"
    assert main(run_argv(variants, dataset, f"sqlite:///{db}", "--langsmith")) == 2
    err = capsys.readouterr().err
    assert "--langsmith" in err and "LANGSMITH_API_KEY" in err and "Traceback" not in err
    assert not db.exists()
    assert main(["langsmith", "export", str(dataset)]) == 2
    assert "--out" in capsys.readouterr().err
    assert main(["langsmith", "push", "--db", f"sqlite:///{db}"]) == 2
    assert not db.exists()

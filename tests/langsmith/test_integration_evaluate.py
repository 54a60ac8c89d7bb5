"""`langsmith.evaluate` with arena's evaluators on the Research Agent and the real local model:
its scores equal `arena score`'s for the same answers."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from langsmith import Client, evaluate
from langsmith.schemas import Example

from arena.cli import main
from arena.golden import load_dataset
from arena.langsmith import AgentTarget, arena_evaluators, case_to_example
from arena.storage import Store
from arena.variants.variant import load_variant
from tests.langsmith.fake_langsmith import FakeLangSmith

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:.upload_runs. parameter is in beta"),
]
CASES = ["HP-003", "GF-001", "EC-003"]  # calculate, graceful refusal, prompt injection


def test_evaluate_on_the_local_model_matches_arena_score(
    local_db_url: str,
    golden_path: Path,
    variants_dir: Path,
    fake_langsmith: FakeLangSmith,
    capsys: pytest.CaptureFixture[str],
) -> None:
    dataset = load_dataset(golden_path)
    dataset_id = uuid.uuid4()
    data = [
        Example(id=uuid.uuid4(), dataset_id=dataset_id, **case_to_example(c, dataset))
        for c in (dataset.case(cid) for cid in CASES)
    ]
    variant_file = variants_dir / "baseline.yaml"
    baseline = load_variant(variant_file)
    # a patient client on a busy 2-core machine (the timeout is not part of the cache key,
    # so `arena run` below replays exactly these replies)
    patient = baseline.model_copy(
        update={"model": baseline.model.model_copy(update={"timeout": 900.0})}
    )
    target = AgentTarget(patient, store=Store(local_db_url), timeout_s=1800)
    client = Client(api_url=fake_langsmith.url, api_key="offline")  # never the hosted service
    results = evaluate(
        target, data=data, evaluators=arena_evaluators, upload_results=False, client=client
    )
    got = {
        row["example"].metadata["case_id"]: {
            r.key: r.score for r in row["evaluation_results"]["results"]
        }
        for row in results
    }
    assert all(not r.error for r in target.results), [r.error for r in target.results]
    capsys.readouterr()  # evaluate's own progress lines

    # the same answers through `arena run` (replayed from the response cache) and `arena score`
    assert (
        main(
            [
                "run",
                "--variants",
                str(variant_file),
                "--cases",
                ",".join(CASES),
                "--db",
                local_db_url,
                "--timeout",
                "900",
                "--json",
            ]
        )
        == 0
    )
    run = json.loads(capsys.readouterr().out)
    assert run["model_calls"] == 0  # the same answers: every reply came from the cache
    by_case = {r["case_id"]: r for r in run["results"]}
    for case_id in CASES:
        assert by_case[case_id]["output"] == target.by_query[dataset.case(case_id).input].output
    assert main(["score", str(run["run_id"]), "--json", "--db", local_db_url]) == 0
    scored = {c["case_id"]: c for c in json.loads(capsys.readouterr().out)["cases"]}
    for case_id in CASES:
        arena, langsmith = scored[case_id], got[case_id]
        assert langsmith["golden_score"] == pytest.approx(arena["score"]), case_id
        assert langsmith["golden_pass"] == float(arena["passed"]), case_id
        for component in ("output", "trajectory", "behavior", "functional"):
            expected = arena["components"].get(component)
            assert langsmith[f"golden_{component}"] == (
                None if expected is None else pytest.approx(expected)
            ), (case_id, component)
    assert not fake_langsmith.runs() and not fake_langsmith.feedback()  # nothing uploaded

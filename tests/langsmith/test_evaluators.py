"""Arena's scorers as LangSmith evaluators: `langsmith.evaluate` on an arena variant gives
the same scores as `arena score` for the same answers (scripted model; the real local model
runs in test_integration_evaluate.py)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langsmith import Client, evaluate
from langsmith.schemas import Example

from arena.evaluation.run_scores import score_run
from arena.langsmith import AgentTarget, arena_evaluators, case_to_example, trajectory_match
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from tests.langsmith.fake_langsmith import FakeLangSmith
from tests.langsmith.helpers import DATASET, register_scripts

pytestmark = [
    pytest.mark.unit,
    pytest.mark.filterwarnings("ignore:.upload_runs. parameter is in beta"),
]


def examples() -> list[Example]:
    """The golden cases as LangSmith examples (what `arena langsmith export` writes)."""
    dataset_id = uuid.uuid4()
    return [
        Example(
            id=uuid.uuid4(),
            dataset_id=dataset_id,
            inputs=e["inputs"],
            outputs=e["outputs"],
            metadata=e["metadata"],
        )
        for e in (case_to_example(c, DATASET) for c in DATASET.test_cases)
    ]


def evaluation_scores(results: Any) -> dict[str, dict[str, Any]]:
    """case id -> evaluator key -> score, from `evaluate`'s results."""
    out: dict[str, dict[str, Any]] = {}
    for row in results:
        case_id = row["example"].metadata["case_id"]
        out[case_id] = {r.key: r.score for r in row["evaluation_results"]["results"]}
    return out


@pytest.mark.parametrize("name", ["good", "bad"])
def test_evaluate_matches_arena_score(
    name: str, store: Store, fake_langsmith: FakeLangSmith
) -> None:
    register_scripts()
    variant = Variant.model_validate(
        {"name": name, "tools": ["calculate"], "model": {"spec": f"fake:ls-{name}"}}
    )
    target = AgentTarget(variant, store=store)
    client = Client(api_url=fake_langsmith.url, api_key="offline")  # never the hosted service
    results = evaluate(
        target, data=examples(), evaluators=arena_evaluators, upload_results=False, client=client
    )
    got = evaluation_scores(results)
    # the same answers through `arena run` (replayed from the cache) and `arena score`
    run = run_suite(store, DATASET, [variant], RunOptions(progress=False))
    assert run.model_calls == 0
    assert [r.output for r in run.results] == [r.output for r in target.results]
    for case in score_run(store, run.run_id).cases:
        scores = got[case.case_id]
        assert scores["golden_score"] == pytest.approx(case.score)
        assert scores["golden_pass"] == float(case.passed)
        for component in ("output", "trajectory", "behavior", "functional"):
            expected = case.components.get(component)
            assert scores[f"golden_{component}"] == (
                None if expected is None else pytest.approx(expected)
            )
    assert not fake_langsmith.runs() and not fake_langsmith.feedback()  # nothing uploaded


def test_evaluators_read_a_langgraph_message_list() -> None:
    example = case_to_example(DATASET.case("C-1"), DATASET)
    outputs = {
        "messages": [
            HumanMessage("What's 25% of 1200?"),
            AIMessage(
                "",
                tool_calls=[{"name": "calculate", "args": {"expression": "0.25*1200"}, "id": "c1"}],
            ),
            ToolMessage("300", tool_call_id="c1"),
            AIMessage("It is 300."),
        ]
    }
    by_key = {
        e.__name__: e(example["inputs"], outputs, example["outputs"]) for e in arena_evaluators
    }
    assert by_key["golden_pass"]["score"] == 1.0
    assert by_key["golden_trajectory"]["score"] == 1.0
    assert by_key["golden_behavior"] == {
        "key": "golden_behavior",
        "score": None,
        "comment": "not applicable: the case has no expected behaviour",
    }
    openai_style = {
        "messages": [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "calculate", "arguments": '{"expression": "1200/4"}'},
                    }
                ],
            },
            {"role": "tool", "content": "300", "tool_call_id": "c1"},
            {"role": "assistant", "content": "300"},
        ]
    }
    assert by_key["golden_output"]["score"] == 1.0
    result = trajectory_match("strict")(example["inputs"], openai_style, example["outputs"])
    assert result == {
        "key": "trajectory_strict",
        "score": 1.0,
        "comment": "matched: True (1 of 1 agent / 1 reference calls)",
    }


@pytest.mark.parametrize(
    ("mode", "score"), [("strict", 0.5), ("unordered", 0.5), ("subset", 0.5), ("superset", 1.0)]
)
def test_trajectory_match_modes(mode: str, score: float) -> None:
    example = case_to_example(DATASET.case("C-1"), DATASET)
    outputs = {
        "output": "300",
        "tool_calls": [
            {"name": "calculate", "args": {"expression": "1200*0.25"}},
            {"name": "calculate", "args": {"expression": "300"}},
        ],
    }
    result = trajectory_match(mode)(example["inputs"], outputs, example["outputs"])  # type: ignore[arg-type]
    assert result["key"] == f"trajectory_{mode}" and result["score"] == score


def test_an_errored_run_is_a_failure_never_a_pass() -> None:
    example = case_to_example(DATASET.case("C-2"), DATASET)
    outputs = {"output": "", "error": "timeout: no answer within 5 s"}
    by_key = {
        e.__name__: e(example["inputs"], outputs, example["outputs"]) for e in arena_evaluators
    }
    assert by_key["golden_pass"]["score"] == 0.0 and by_key["golden_score"]["score"] == 0.0
    assert "run error: timeout" in by_key["golden_score"]["comment"]


def test_evaluate_with_upload_records_golden_feedback_in_an_experiment(
    fake_langsmith: FakeLangSmith,
) -> None:
    from langsmith import schemas as ls

    from arena.langsmith import upload_dataset

    register_scripts()
    client = Client(api_url=fake_langsmith.url, api_key="test-key")
    upload_dataset(client, DATASET)
    variant = Variant.model_validate(
        {"name": "good", "tools": ["calculate"], "model": {"spec": "fake:ls-good"}}
    )
    evaluate(
        AgentTarget(variant),
        data="ls-contract",
        evaluators=arena_evaluators,
        client=client,
        experiment_prefix="arena-good",
    )
    client.flush()
    (experiment,) = fake_langsmith.sessions.values()
    assert experiment["name"].startswith("arena-good")
    roots = {rid: r for rid, r in fake_langsmith.runs().items() if r.get("reference_example_id")}
    assert len(roots) == 2 and all(ls.Run(**r).outputs for r in roots.values())
    feedback = [ls.FeedbackCreate(**b) for b in fake_langsmith.feedback()]
    scores = {(str(f.run_id), f.key): f.score for f in feedback}
    assert {key for _, key in scores} == {
        "golden_score",
        "golden_pass",
        "golden_output",
        "golden_trajectory",
        "golden_behavior",
        "golden_functional",
    }
    assert all(scores[(rid, "golden_pass")] == 1.0 for rid in roots)


def test_an_example_is_scored_once_for_all_the_evaluators(monkeypatch: pytest.MonkeyPatch) -> None:
    import arena.langsmith._evaluators as module

    calls: list[Any] = []
    real = module._score

    def counting(*args: Any) -> Any:
        calls.append(args[1])
        return real(*args)

    monkeypatch.setattr(module, "_score", counting)
    example = case_to_example(DATASET.case("C-1"), DATASET)
    evaluators = module.make_evaluators()
    for outputs in ({"output": "300"}, {"output": "It is 300."}):
        scores = [e(example["inputs"], outputs, example["outputs"]) for e in evaluators]
        assert len(scores) == 6
    # one scoring per distinct example, not one per evaluator
    assert calls == [{"output": "300"}, {"output": "It is 300."}]

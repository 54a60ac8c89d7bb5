"""Trajectory metrics, match modes, approximate arguments and the trajectory component."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.golden._models import GoldenCase
from arena.records.results import RunResult, TrajectoryStep
from arena.scoring import (
    ToolCall,
    edit_distance,
    edit_similarity,
    efficiency,
    forbidden_score,
    hallucinated_tools,
    lcs_ratio,
    match_trajectory,
    min_calls_score,
    score_expected_args,
    score_trajectory,
    tool_iou,
    tool_overlap,
    value_satisfied,
)
from arena.scoring._trajectory import best_alternative

pytestmark = [pytest.mark.unit, pytest.mark.trajectory]

TOOLS = ["search_web", "search_papers", "calculate", "write_file"]


def make_case(**fields: object) -> GoldenCase:
    """A multi-step case with the given expectations."""
    return GoldenCase.model_validate(
        {"id": "T-1", "input": "q", "category": "multi_step", **fields}
    )


def make_result(
    *calls: tuple[str, dict[str, Any]] | str, errors: set[int] | None = None
) -> RunResult:
    """A result whose steps are the given calls (a bare name means no arguments)."""
    steps = []
    for i, call in enumerate(calls):
        name, args = (call, {}) if isinstance(call, str) else call
        steps.append(
            TrajectoryStep(
                index=i, tool=name, args=args, error="boom" if errors and i in errors else None
            )
        )
    return RunResult(
        variant="v", variant_hash="h", case_id="T-1", case_hash="c", output="answer", steps=steps
    )


# ---------------------------------------------------------------- metrics


@pytest.mark.parametrize(
    ("agent", "reference", "precision", "recall", "f1"),
    [
        ([], [], 1.0, 1.0, 1.0),
        ([], ["search_web"], 0.0, 0.0, 0.0),
        (["search_web"], [], 0.0, 0.0, 0.0),
        (["search_web"], ["search_web"], 1.0, 1.0, 1.0),
        (["search_web", "search_web"], ["search_web"], 0.5, 1.0, 2 / 3),
        (["search_web", "calculate"], ["calculate", "search_web"], 1.0, 1.0, 1.0),
        (["search_web"], ["search_web", "calculate"], 1.0, 0.5, 2 / 3),
        (["write_file"], ["calculate"], 0.0, 0.0, 0.0),
    ],
)
def test_tool_overlap(
    agent: list[str], reference: list[str], precision: float, recall: float, f1: float
) -> None:
    overlap = tool_overlap(agent, reference)
    assert overlap.precision == pytest.approx(precision)
    assert overlap.recall == pytest.approx(recall)
    assert overlap.f1 == pytest.approx(f1)


@pytest.mark.parametrize(
    ("agent", "reference", "iou"),
    [([], [], 1.0), (["a", "a"], ["a"], 1.0), (["a", "b"], ["b", "c"], 1 / 3), (["a"], [], 0.0)],
)
def test_tool_iou(agent: list[str], reference: list[str], iou: float) -> None:
    assert tool_iou(agent, reference) == pytest.approx(iou)


@pytest.mark.parametrize(
    ("agent", "order", "lcs", "similarity"),
    [
        (["search_web", "calculate"], ["search_web", "calculate"], 1.0, 1.0),
        (["calculate", "search_web"], ["search_web", "calculate"], 0.5, 0.0),
        (["search_web", "search_web", "calculate"], ["search_web", "calculate"], 1.0, 2 / 3),
        ([], ["search_web", "calculate"], 0.0, 0.0),
        (["search_web"], [], 1.0, 0.0),
        ([], [], 1.0, 1.0),
    ],
)
def test_order_metrics(agent: list[str], order: list[str], lcs: float, similarity: float) -> None:
    assert lcs_ratio(agent, order) == pytest.approx(lcs)
    assert edit_similarity(agent, order) == pytest.approx(similarity)


def test_edit_distance_counts_substitutions_and_gaps() -> None:
    assert edit_distance(["a", "b", "c"], ["a", "x", "c", "d"]) == 2


@pytest.mark.parametrize(
    ("steps", "max_steps", "score"),
    [(0, 1, 1.0), (3, 3, 1.0), (4, 3, 0.8), (8, 3, 0.0), (20, 3, 0.0)],
)
def test_efficiency(steps: int, max_steps: int, score: float) -> None:
    assert efficiency(steps, max_steps) == pytest.approx(score)


@pytest.mark.parametrize(
    ("agent", "forbidden", "score"),
    [
        ([], ["write_file"], 1.0),
        (["write_file"], ["write_file"], 0.5),
        (["write_file", "search_web", "write_file"], ["write_file", "search_web"], 0.0),
    ],
)
def test_forbidden_score(agent: list[str], forbidden: list[str], score: float) -> None:
    assert forbidden_score(agent, forbidden) == score


@pytest.mark.parametrize(("calls", "minimum", "score"), [(0, 0, 1.0), (1, 2, 0.5), (3, 2, 1.0)])
def test_min_calls(calls: int, minimum: int, score: float) -> None:
    assert min_calls_score(calls, minimum) == score


def test_best_alternative_prefers_best_fit_and_accepts_no_tools() -> None:
    alternatives = [[], ["search_web"], ["search_web", "compare_sources"]]
    assert best_alternative([], alternatives)[0] == 0
    assert best_alternative(["search_web"], alternatives)[0] == 1
    index, overlap = best_alternative(["search_web", "compare_sources"], alternatives)
    assert index == 2 and overlap.f1 == 1.0


def test_hallucinated_tools() -> None:
    assert hallucinated_tools(["search_web", "send_email"], set(TOOLS)) == ["send_email"]
    assert hallucinated_tools(["send_email"], None) == []


# ---------------------------------------------------------------- match modes


def call(name: str, **args: Any) -> ToolCall:
    """A ToolCall with keyword arguments."""
    return ToolCall(name=name, args=args)


REF = [call("search_web", query="Japan GDP"), call("calculate", expression="4.2*0.05")]


@pytest.mark.parametrize(
    ("agent", "mode", "args_mode", "matched", "score"),
    [
        (REF, "strict", "exact", True, 1.0),
        (REF[::-1], "strict", "exact", False, 0.0),
        (REF[::-1], "unordered", "exact", True, 1.0),
        ([REF[0]], "subset", "exact", True, 1.0),
        ([REF[0]], "superset", "exact", False, 0.5),
        ([*REF, call("write_file", path="x")], "superset", "exact", True, 1.0),
        ([*REF, call("write_file", path="x")], "subset", "exact", False, 2 / 3),
        ([*REF, call("write_file", path="x")], "unordered", "exact", False, 2 / 3),
        ([call("search_web", query="Japan"), REF[1]], "strict", "exact", False, 0.5),
        ([call("search_web", query="Japan"), REF[1]], "strict", "ignore", True, 1.0),
        ([call("search_web", query="Japan"), REF[1]], "strict", "approx", False, 0.5),
        ([call("search_web", query="Japan GDP 2024"), REF[1]], "strict", "approx", True, 1.0),
        ([call("search_web", query="Japan GDP", n=5), REF[1]], "strict", "superset", True, 1.0),
        ([call("search_web", query="Japan GDP", n=5), REF[1]], "strict", "subset", False, 0.5),
        ([call("search_web"), REF[1]], "strict", "subset", True, 1.0),
        ([], "strict", "exact", False, 0.0),
        ([], "subset", "exact", True, 1.0),
    ],
)
def test_match_modes(
    agent: list[ToolCall], mode: Any, args_mode: Any, matched: bool, score: float
) -> None:
    verdict = match_trajectory(agent, REF, mode=mode, args_mode=args_mode)
    assert verdict.matched is matched
    assert verdict.score == pytest.approx(score)


def test_match_empty_against_empty() -> None:
    for mode in ("strict", "unordered", "subset", "superset"):
        verdict = match_trajectory([], [], mode=mode)
        assert verdict.matched and verdict.score == 1.0


def test_per_tool_overrides() -> None:
    agent = [call("search_web", query="other"), call("calculate", expression="4.2*0.05", x=1)]
    assert not match_trajectory(agent, REF, "strict", "exact").matched
    by_mode = match_trajectory(
        agent, REF, "strict", "exact", overrides={"search_web": "ignore", "calculate": "superset"}
    )
    assert by_mode.matched
    by_keys = match_trajectory(
        agent,
        REF,
        "strict",
        "exact",
        overrides={"search_web": "ignore", "calculate": ["expression"]},
    )
    assert by_keys.matched
    by_callable = match_trajectory(
        agent,
        REF,
        "strict",
        "exact",
        overrides={"search_web": lambda a, r: True, "calculate": lambda a, r: a.get("x") == 1},
    )
    assert by_callable.matched


def test_unordered_uses_a_maximum_matching_not_a_greedy_one() -> None:
    # The first agent call fits both reference calls; a greedy pass would take the wrong one.
    agent = [call("search_web", q="a", lang="en"), call("search_web", q="a")]
    ref = [call("search_web", q="a"), call("search_web", q="a", lang="en")]
    assert match_trajectory(agent, ref, "unordered", "superset").matched


def test_bad_modes_are_rejected() -> None:
    with pytest.raises(ValueError):
        match_trajectory([], [], mode="fuzzy")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        match_trajectory([], [], args_mode="fuzzy")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        match_trajectory(REF, REF, overrides={"search_web": "fuzzy"})  # type: ignore[dict-item]


# ---------------------------------------------------------------- approximate args


@pytest.mark.parametrize(
    ("expected", "actual", "ok"),
    [
        ("RAG", "rag techniques", True),
        ("1200", "1200 * 0.25", True),
        ("1200", "11200 * 0.25", False),
        ("Japan", "日本 Japan GDP", True),
        ("Tōkyō", "TŌKYŌ population", True),
        (1200, 1200.0, True),
        (1200, "1,200 * 0.25", True),
        (0.25, "1200 * 0.25", True),
        (True, True, True),
        (True, 1.5, False),
        (None, None, True),
        (["a", "b"], ["b", "a", "c"], True),
        (["a", "z"], ["b", "a"], False),
        ({"k": "v"}, {"k": "value"}, True),
        ({"k": "v"}, "k v", False),
    ],
)
def test_value_satisfied(expected: Any, actual: Any, ok: bool) -> None:
    assert value_satisfied(expected, actual) is ok


def test_expected_args_take_the_best_call_per_tool() -> None:
    result = make_result(
        ("search_web", {"query": "weather"}),
        ("search_web", {"query": "Japan GDP"}),
        ("calculate", {"expression": "1+1", "precision": 2}),
    )
    check = score_expected_args(
        result.steps,
        {
            "search_web": {"query": "japan"},
            "calculate": {"expression": "4.2", "precision": 2},
            "write_file": {"path": "x"},
        },
    )
    tools = check.details["tools"]
    assert tools["search_web"]["score"] == 1.0 and tools["search_web"]["best_step"] == 1
    assert tools["calculate"]["score"] == 0.5
    assert tools["write_file"] == {"score": 0.0, "called": False, "expected": {"path": "x"}}
    assert check.score == pytest.approx(0.5) and not check.passed


# ---------------------------------------------------------------- trajectory component


def test_perfect_trajectory_scores_one() -> None:
    case = make_case(
        expected_tools=["search_web", "calculate"],
        expected_order=["search_web", "calculate"],
        expected_args={"calculate": {"expression": "4.2"}},
        forbidden_tools=["write_file"],
        min_tool_calls=2,
        max_steps=4,
    )
    check = score_trajectory(
        make_result("search_web", ("calculate", {"expression": "4.2*5"})), case, set(TOOLS)
    )
    assert check.score == 1.0 and check.passed
    assert set(check.details["components"]) == {
        "selection",
        "order",
        "args",
        "efficiency",
        "forbidden",
        "min_calls",
    }
    assert all(m["matched"] for m in check.details["match"].values())


def test_empty_trajectory_against_expected_tools() -> None:
    case = make_case(expected_tools=["calculate"], expected_order=["calculate"])
    check = score_trajectory(make_result(), case)
    components = check.details["components"]
    assert components["selection"] == 0.0 and components["order"] == 0.0
    assert components["efficiency"] == 1.0


def test_no_tools_expected_and_none_used() -> None:
    check = score_trajectory(make_result(), make_case(max_steps=1))
    assert check.score == 1.0


def test_tools_used_when_none_expected_costs_selection() -> None:
    check = score_trajectory(make_result("search_web"), make_case(max_steps=1))
    assert check.details["components"]["selection"] == 0.0


def test_repeated_tools_cost_precision_and_efficiency() -> None:
    case = make_case(expected_tools=["search_web"], max_steps=3)
    check = score_trajectory(make_result(*["search_web"] * 8), case)
    components = check.details["components"]
    assert components["selection"] == pytest.approx(2 / 9)
    assert components["efficiency"] == 0.0


@pytest.mark.parametrize(
    ("calls", "selection"),
    [
        ([], 1.0),
        (["search_web"], 1.0),
        (["search_web", "compare_sources"], 1.0),
        (["calculate"], 0.0),
        (["search_web", "search_web"], 2 / 3),
    ],
)
def test_acceptable_alternatives(calls: list[str], selection: float) -> None:
    case = make_case(
        acceptable_tools=[[], ["search_web"], ["search_web", "compare_sources"]], max_steps=4
    )
    check = score_trajectory(make_result(*calls), case)
    assert check.details["components"]["selection"] == pytest.approx(selection)


def test_expected_tools_count_as_an_acceptable_alternative() -> None:
    case = make_case(expected_tools=["search_papers"], acceptable_tools=[["search_web"]])
    check = score_trajectory(make_result("search_papers"), case)
    assert check.details["components"]["selection"] == 1.0
    assert check.details["selection"]["alternative"] == 1


def test_errored_calls_never_count_and_hallucinations_are_reported() -> None:
    case = make_case(expected_tools=["calculate"], min_tool_calls=2)
    check = score_trajectory(make_result("calculate", "send_email", errors={0}), case, set(TOOLS))
    assert check.details["errored_calls"] == [0]
    assert check.details["hallucinated_tools"] == ["send_email"]
    assert check.details["tools"] == ["calculate (failed)", "send_email"]
    assert check.details["components"]["min_calls"] == 0.5
    assert check.details["components"]["selection"] == 0.0
    assert not check.passed
    assert check.details["missed"] == ["calculate was called but returned an error"]


def test_forbidden_tool_fails_the_trajectory_check() -> None:
    case = make_case(expected_tools=["calculate"], forbidden_tools=["search_web"])
    check = score_trajectory(make_result("search_web", "calculate"), case)
    assert not check.passed
    assert check.details["forbidden"]["violations"] == ["search_web"]
    assert check.details["components"]["forbidden"] == 0.5


def test_weights_are_redistributed_over_applicable_parts() -> None:
    case = make_case(expected_tools=["calculate"], max_steps=1)
    check = score_trajectory(make_result("calculate", "calculate"), case)
    assert check.details["weights"] == pytest.approx(
        {"selection": 0.35 / 0.5, "efficiency": 0.15 / 0.5}
    )
    assert check.score == pytest.approx(0.7 * (2 / 3) + 0.3 * 0.8)


# ---------------------------------------------------------------- properties

names = st.sampled_from(["a", "b", "c", "d"])
arg_dicts = st.dictionaries(st.sampled_from(["q", "n"]), st.sampled_from(["x", "y", 1]), max_size=2)
calls = st.lists(st.builds(ToolCall, name=names, args=arg_dicts), max_size=6)
modes = st.sampled_from(["exact", "ignore", "subset", "superset", "approx"])


@given(st.lists(names, max_size=8), st.lists(names, max_size=8))
@settings(max_examples=100, deadline=None)
def test_f1_is_symmetric_and_bounded(agent: list[str], reference: list[str]) -> None:
    forward, backward = tool_overlap(agent, reference), tool_overlap(reference, agent)
    assert forward.f1 == pytest.approx(backward.f1)
    assert forward.precision == pytest.approx(backward.recall)
    for value in (
        forward.f1,
        forward.precision,
        forward.recall,
        tool_iou(agent, reference),
        lcs_ratio(agent, reference),
        edit_similarity(agent, reference),
    ):
        assert 0.0 <= value <= 1.0


@given(calls, calls, modes)
@settings(max_examples=100, deadline=None)
def test_strict_implies_unordered_and_scores_bounded(
    agent: list[ToolCall], reference: list[ToolCall], args_mode: Any
) -> None:
    verdicts = {
        mode: match_trajectory(agent, reference, mode, args_mode)
        for mode in ("strict", "unordered", "subset", "superset")
    }
    if verdicts["strict"].matched:
        assert verdicts["unordered"].matched
    if verdicts["unordered"].matched:
        assert verdicts["subset"].matched and verdicts["superset"].matched
    for verdict in verdicts.values():
        assert 0.0 <= verdict.score <= 1.0
        assert verdict.matched == (verdict.score == 1.0)


@given(st.lists(names, max_size=6), st.dictionaries(names, arg_dicts), st.integers(0, 3))
@settings(max_examples=60, deadline=None)
def test_trajectory_equal_to_expectation_scores_one(
    tools: list[str], tool_args: dict[str, dict[str, Any]], slack: int
) -> None:
    # expected_args are per tool, so every call of a tool carries that tool's arguments.
    args = {name: {k: str(v) for k, v in tool_args.get(name, {}).items()} for name in tools}
    expected_args: dict[str, dict[str, object]] = {name: dict(a) for name, a in args.items()}
    case = make_case(
        expected_tools=tools,
        expected_order=tools,
        expected_args=expected_args,
        max_steps=len(tools) + slack,
        min_tool_calls=len(tools),
    )
    check = score_trajectory(make_result(*[(name, args[name]) for name in tools]), case)
    assert all(v == 1.0 for v in check.details["components"].values())
    if tools:
        assert check.details["order"]["edit_similarity"] == 1.0
    assert check.details["selection"]["iou"] == 1.0
    assert check.score == pytest.approx(1.0)
    assert all(m["matched"] and m["score"] == 1.0 for m in check.details["match"].values())


@given(
    st.lists(names, max_size=7),
    st.lists(names, max_size=4),
    st.lists(names, max_size=3),
    st.integers(0, 6),
    st.integers(0, 4),
)
@settings(max_examples=80, deadline=None)
def test_trajectory_scores_stay_in_unit_interval(
    agent: list[str], expected: list[str], forbidden: list[str], max_steps: int, minimum: int
) -> None:
    case = make_case(
        expected_tools=expected,
        expected_order=expected,
        forbidden_tools=forbidden,
        max_steps=max_steps,
        min_tool_calls=minimum,
        acceptable_tools=[[], expected[:1]] if minimum % 2 else [],
    )
    check = score_trajectory(make_result(*agent), case)
    assert 0.0 <= check.score <= 1.0
    assert all(0.0 <= v <= 1.0 for v in check.details["components"].values())

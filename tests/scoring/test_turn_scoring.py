"""Conversation cases: per-turn expectations as a golden check, the end state, single-turn
cases untouched."""

from __future__ import annotations

import pytest

from arena.golden._models import GoldenCase
from arena.records.results import UNAVAILABLE_TOOL, RunResult, TrajectoryStep
from arena.scoring import score_result
from arena.scoring.checks import golden_checks
from tests.scoring.dialogues import BROKEN_TURN_3, GOOD, dialogue_result, refund_case

pytestmark = pytest.mark.unit


def _hard(score_texts: list[str]) -> list[str]:
    return [t for t in score_texts if t.startswith("turn ")]


def test_a_dialogue_meeting_every_turn_passes_with_a_turns_component() -> None:
    score = score_result(dialogue_result(GOOD), refund_case())
    assert score.passed, score.fail_reasons
    assert score.components["turns"] == 1.0
    assert score.conversation
    rows = score.details["turns"]["turns"]
    assert [(r["turn"], r["passed"]) for r in rows] == [(1, True), (3, True)]


def test_breaking_turn_three_fails_the_case_and_names_the_turn() -> None:
    score = score_result(dialogue_result(BROKEN_TURN_3), refund_case())
    assert not score.passed
    hard = [r for r in score.fail_reasons if r.hard and r.check == "turns"]
    assert [r.text for r in hard] == ["turn 3: expected a call to issue_refund"]
    assert hard[0].kind == "trajectory"
    rows = {r["turn"]: r for r in score.details["turns"]["turns"]}
    assert rows[1]["passed"] and not rows[3]["passed"]
    assert score.components["turns"] == 0.5
    # the end state alone is as good as a dialogue that meets every turn
    good = score_result(dialogue_result(GOOD), refund_case())
    for name in ("output", "trajectory"):
        assert score.components[name] == good.components[name]
    assert [r for r in score.fail_reasons if r.hard] == hard


def test_a_turn_reply_is_matched_with_the_scorers_text_matching() -> None:
    good_turn_1 = [("Could you give me the ORDER   Number, please?", []), *GOOD[1:]]
    assert score_result(dialogue_result(good_turn_1), refund_case()).passed
    bad = [("Refunding right away.", ["issue_refund"]), *GOOD[1:]]
    score = score_result(dialogue_result(bad), refund_case())
    assert _hard(score.fail_reasons) == [
        "turn 1: reply missing 'order number' or 'order'",
        "turn 1: called the forbidden tool issue_refund",
    ]
    kinds = {r.text: r.kind for r in score.fail_reasons if r.check == "turns"}
    assert kinds["turn 1: reply missing 'order number' or 'order'"] == "output"


def test_not_contains_on_a_turn_is_a_hard_fail() -> None:
    turns = [*GOOD[:2], ("Refund issued, though I cannot say when.", ["issue_refund"])]
    score = score_result(dialogue_result(turns), refund_case())
    assert not score.passed
    assert _hard(score.fail_reasons) == ["turn 3: reply contains 'cannot'"]


def test_an_expected_turn_never_reached_fails() -> None:
    result = dialogue_result(GOOD[:2], ended_by="condition")
    score = score_result(result, refund_case())
    assert not score.passed
    assert "turn 3: never reached (the conversation ended before it)" in score.fail_reasons


def test_tools_of_a_turn_are_a_multiset_of_available_calls() -> None:
    case = refund_case(
        expected_tools=[],
        conversation={
            "turns": [{"user": "order 4471"}],
            "expect": [{"turn": 2, "tools": ["lookup_order", "lookup_order"]}],
        },
    )
    once = dialogue_result([("Which order?", ["lookup_order"]), ("refund ok", ["lookup_order"])])
    score = score_result(once, case)
    assert _hard(score.fail_reasons) == ["turn 2: expected 2 calls to lookup_order, got 1"]
    twice = dialogue_result([("Which order?", []), ("refund ok", ["lookup_order"] * 2)])
    assert score_result(twice, case).passed
    unavailable = dialogue_result([("Which order?", []), ("refund ok", ["lookup_order"] * 2)])
    unavailable.steps[1].error = f"{UNAVAILABLE_TOOL}lookup_order"
    assert not score_result(unavailable, case).passed


def test_description_only_expectations_are_judged_not_scored() -> None:
    case = refund_case(
        conversation={
            "turns": [{"user": "order 4471"}],
            "expect": [{"turn": 2, "description": "thanks the user"}],
        }
    )
    score = score_result(dialogue_result([("order?", []), ("refund done", ["issue_refund"])]), case)
    assert "turns" not in score.components
    assert score.passed


def test_end_state_checks_read_the_last_reply_every_turns_calls_and_files() -> None:
    case = refund_case(
        forbidden_tools=["delete_account"],
        expected_files=[{"path": "refunds.txt", "contains": ["4471"]}],
    )
    ok = dialogue_result(GOOD, files={"refunds.txt": "order 4471 refunded"})
    assert score_result(ok, case).passed
    # the refund is made in turn 3 but expected over the whole conversation
    whole = score_result(ok, case)
    assert whole.details["trajectory"]["tools"] == ["lookup_order", "issue_refund"]
    no_refund = [*GOOD[:2], ("Done: your refund is noted.", [])]
    without = score_result(dialogue_result(no_refund, files=ok.files), case)
    assert without.components["trajectory.selection"] < whole.components["trajectory.selection"]
    # a forbidden tool in turn 2 fails the end state
    turns = [GOOD[0], ("Found it.", ["delete_account"]), GOOD[2]]
    bad = score_result(dialogue_result(turns, files=ok.files), case)
    assert "forbidden tool called: delete_account" in bad.fail_reasons
    # 'refund' only in an earlier reply: the end state reads the last one
    last = [("Your refund needs an order number.", []), GOOD[1], ("Done.", ["issue_refund"])]
    missed = score_result(dialogue_result(last, files=ok.files), case)
    assert missed.details["output"]["contains"]["missed"] == ["refund"]
    # the sandbox's files are checked after the last turn
    assert whole.components["functional"] == 1.0
    assert score_result(dialogue_result(GOOD), case).components["functional"] == 0.0


def test_an_agent_error_in_a_dialogue_stays_a_failure() -> None:
    result = dialogue_result(GOOD[:2], ended_by="agent_error", error="TimeoutError: turn 3")
    score = score_result(result, refund_case())
    assert not score.passed and score.error is not None and score.simulator_error is None
    assert score.components["turns"] == 0.0


def test_single_turn_cases_score_as_before() -> None:
    case = GoldenCase.model_validate(
        {"id": "HP-1", "input": "q", "category": "happy_path", "expected_tools": ["search"]}
    )
    result = RunResult(
        variant="v",
        variant_hash="h",
        case_id="HP-1",
        case_hash="c",
        output="found it",
        steps=[TrajectoryStep(index=0, tool="search")],
    )
    score = score_result(result, case)
    assert "turns" not in score.components
    dumped = score.model_dump()
    assert "conversation" not in dumped and "simulator_error" not in dumped
    turns = next(c for c in golden_checks() if c.name == "turns")
    assert not turns.applies(case)

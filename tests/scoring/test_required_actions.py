"""Required actions are hard (issue 36, findings 1 and 3): a call that raised, timed out or
was unavailable never satisfies a tool expectation unless the case expects that error
(``expected_tool_errors``), and a case that misses a required action fails whatever its score,
one-message cases and conversations alike."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from arena.golden import case_hash
from arena.golden._models import GoldenCase
from arena.records.results import UNAVAILABLE_TOOL, RunResult, TrajectoryStep
from arena.scoring import PASS_THRESHOLD, CaseScore, aggregate, score_result
from tests.scoring.dialogues import dialogue_result

pytestmark = pytest.mark.unit

RAISED = "KeyError: 'u-42'"
"""The error the recorder stores when the tool raised."""
CAUGHT = "Error: KeyError('u-42')\n Please fix your mistakes."
"""The error of a ``ToolNode(handle_tool_errors=True)`` that caught the same exception."""
UNAVAILABLE = f"{UNAVAILABLE_TOOL}reset_password is not one of this variant's tools (lookup_user)"

HELPDESK: dict[str, Any] = {
    "id": "H-1",
    "input": "Please reset the password of user u-42.",
    "category": "happy_path",
    "tier": "critical",
    "expected_tools": ["reset_password"],
    "expected_args": {"reset_password": {"user_id": "u-42"}},
    "expected_output_contains": ["reset"],
}


def case(**changes: Any) -> GoldenCase:
    return GoldenCase.model_validate({**HELPDESK, **changes})


def result(*calls: tuple[str, dict[str, Any], str | None], output: str = "") -> RunResult:
    """A one-message result: each call is (tool, args, error)."""
    steps = [
        TrajectoryStep(index=i, tool=tool, args=args, error=error)
        for i, (tool, args, error) in enumerate(calls)
    ]
    return RunResult(
        variant="v",
        variant_hash="h",
        case_id="H-1",
        case_hash="c",
        output=output or "Done: the password of u-42 has been reset.",
        steps=steps,
    )


def reset(error: str | None = None, user: str = "u-42") -> tuple[str, dict[str, Any], str | None]:
    return ("reset_password", {"user_id": user}, error)


def hard(score: CaseScore) -> list[str]:
    return [r.text for r in score.fail_reasons if r.hard]


# ------------------------------------------------------------- one-message cases


def test_a_succeeding_call_still_passes() -> None:
    score = score_result(result(reset()), case())
    assert score.passed, score.fail_reasons
    assert score.details["trajectory"]["missed"] == []


@pytest.mark.parametrize("error", [RAISED, CAUGHT])
def test_a_call_that_raised_satisfies_neither_expected_tools_nor_args(error: str) -> None:
    score = score_result(result(reset(error)), case())
    assert not score.passed
    assert score.components["trajectory.selection"] == 0.0
    assert score.components["trajectory.args"] == 0.0
    assert hard(score) == [
        "reset_password was called but raised KeyError",
        "reset_password was called with the expected arguments but raised KeyError",
    ]
    [first, _] = [r for r in score.fail_reasons if r.hard]
    assert (first.check, first.kind) == ("trajectory", "trajectory")
    assert score.details["trajectory"]["tools"] == ["reset_password (failed)"]


def test_a_call_that_timed_out_is_said_so() -> None:
    score = score_result(result(reset("TimeoutError: the directory took 30 s")), case())
    assert not score.passed
    assert "reset_password was called but timed out" in hard(score)


def test_a_call_to_an_unavailable_tool_is_said_so() -> None:
    score = score_result(result(reset(UNAVAILABLE)), case())
    assert not score.passed
    assert hard(score)[0] == (
        "reset_password was called but was refused: the tool is unavailable to this variant"
    )


def test_a_missed_expected_tool_fails_a_case_whose_score_passes() -> None:
    """Finding 3: the met checks score above the threshold, the missed action still fails."""
    lookup = ("lookup_user", {"user_id": "u-42"}, None)
    two = case(expected_tools=["lookup_user", "reset_password"], expected_args={})
    score = score_result(result(lookup, reset(UNAVAILABLE)), two)
    assert score.score >= PASS_THRESHOLD
    assert not score.passed
    assert hard(score) == [
        "reset_password was called but was refused: the tool is unavailable to this variant"
    ]
    never = score_result(result(lookup), two)
    assert never.score >= PASS_THRESHOLD and not never.passed
    assert hard(never) == ["reset_password was never called"]


def test_expected_args_not_met_fail_the_case() -> None:
    score = score_result(result(reset(user="u-7")), case())
    assert score.score >= PASS_THRESHOLD
    assert not score.passed
    assert hard(score) == [
        "reset_password was not called with the expected arguments {'user_id': 'u-42'}"
    ]


def test_calls_out_of_the_expected_order_fail_the_case() -> None:
    ordered = case(
        expected_tools=["lookup_user", "reset_password"],
        expected_order=["lookup_user", "reset_password"],
    )
    score = score_result(result(reset(), ("lookup_user", {}, None)), ordered)
    assert score.score >= PASS_THRESHOLD
    assert not score.passed
    assert hard(score) == [
        "calls out of the expected order: expected lookup_user → reset_password, "
        "got reset_password → lookup_user"
    ]
    # a raised call is no call of the order either: it is named once, with why
    raised = score_result(result(("lookup_user", {}, None), reset(RAISED)), ordered)
    assert hard(raised) == [
        "reset_password was called but raised KeyError",
        "reset_password was called with the expected arguments but raised KeyError",
    ]


def test_one_completed_acceptable_tool_set_is_enough() -> None:
    either = case(expected_args={}, acceptable_tools=[["open_ticket"]])
    assert score_result(result(("open_ticket", {}, None)), either).passed
    score = score_result(result(("open_ticket", {}, RAISED)), either)
    assert hard(score) == [
        "open_ticket was called but raised KeyError (no acceptable tool set was completed)"
    ]


def test_a_case_without_expected_tools_requires_no_action() -> None:
    score = score_result(result(reset(RAISED)), case(expected_tools=[], expected_args={}))
    assert score.details["trajectory"]["missed"] == []
    assert not [r for r in score.fail_reasons if r.hard]


def test_a_raised_call_is_no_correct_tool_use_in_the_aggregates() -> None:
    results = [result(reset(RAISED)), result(reset())]
    [variant] = aggregate([score_result(r, case()) for r in results], results)
    assert variant.tool_accuracy == pytest.approx(0.5)
    assert variant.pass_rate == pytest.approx(0.5)


# ------------------------------------------------------------- expected_tool_errors


def test_an_expected_tool_error_counts_as_the_call() -> None:
    handling = case(expected_tool_errors=["reset_password"])
    score = score_result(result(reset(RAISED)), handling)
    assert score.passed, score.fail_reasons
    assert score.components["trajectory.selection"] == 1.0
    assert score.components["trajectory.args"] == 1.0


def test_an_expected_tool_error_never_excuses_an_unavailable_tool() -> None:
    handling = case(expected_tool_errors=["reset_password"])
    score = score_result(result(reset(UNAVAILABLE)), handling)
    assert not score.passed
    assert hard(score)[0].startswith("reset_password was called but was refused")


def test_expected_tool_errors_must_name_an_expected_tool_once() -> None:
    with pytest.raises(ValidationError) as caught:
        case(expected_tool_errors=["open_ticket"])
    [error] = caught.value.errors()
    assert error["loc"] == ("expected_tool_errors",)
    assert "open_ticket named by no tool expectation" in error["msg"]
    with pytest.raises(ValidationError, match="each tool is named once"):
        case(expected_tool_errors=["reset_password", "reset_password"])


def test_an_unset_expected_tool_errors_keeps_the_case_hash() -> None:
    assert "expected_tool_errors" not in case().model_dump()
    assert case_hash(case()) != case_hash(case(expected_tool_errors=["reset_password"]))


# ------------------------------------------------------------- conversations

HD: dict[str, Any] = {
    "id": "HD-3",
    "input": "I am locked out of my account.",
    "category": "happy_path",
    "tier": "critical",
    "expected_tools": ["lookup_user", "reset_password"],
    "conversation": {
        "turns": [{"user": "My id is u-42."}],
        "expect": [
            {"turn": 1, "contains": ["id"]},
            {"turn": 2, "contains": ["reset"]},
        ],
    },
}
TURNS = [
    ("Sure, what is your user id?", []),
    ("Done: your password has been reset.", ["lookup_user", "reset_password"]),
]


def conversation(*, error: str | None, **changes: Any) -> tuple[RunResult, GoldenCase]:
    """HD-3 and a dialogue whose turn-2 call of reset_password ends with ``error``."""
    got = dialogue_result(TURNS, case_id="HD-3")
    steps = [
        s.model_copy(update={"error": error}) if s.tool == "reset_password" else s
        for s in got.steps
    ]
    return got.model_copy(update={"steps": steps}), GoldenCase.model_validate({**HD, **changes})


def test_a_conversation_that_misses_a_required_action_fails_whatever_its_score() -> None:
    """Finding 3: the variant calls an unavailable reset_password and claims success."""
    assert score_result(*conversation(error=None)).passed
    score = score_result(*conversation(error=UNAVAILABLE))
    assert score.components["turns"] == 1.0 and score.score >= PASS_THRESHOLD
    assert not score.passed
    assert hard(score) == [
        "reset_password was called but was refused: the tool is unavailable to this variant"
    ]


def test_a_turns_expected_call_that_raised_fails_the_turn_and_says_why() -> None:
    per_turn = {**HD["conversation"], "expect": [{"turn": 2, "tools": ["reset_password"]}]}
    score = score_result(*conversation(error=RAISED, conversation=per_turn))
    assert not score.passed
    rows = score.details["turns"]["turns"]
    assert rows[0]["failures"] == [
        "turn 2: expected a call to reset_password; its call raised KeyError"
    ]
    turn = [r for r in score.fail_reasons if r.check == "turns"]
    assert turn[0].hard and turn[0].kind == "trajectory"
    handled = score_result(
        *conversation(error=RAISED, conversation=per_turn, expected_tool_errors=["reset_password"])
    )
    assert handled.passed, handled.fail_reasons

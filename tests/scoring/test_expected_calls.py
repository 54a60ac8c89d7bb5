"""Exact calls (issue 45, item 2): ``expected_calls`` matched one to one with exact arguments,
the order modes, and the side-effect rule. Each test names a false pass the issue measured."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from arena.errors import InputError
from arena.golden import case_hash, load_dataset
from arena.golden._models import GoldenCase
from arena.records.results import RunResult, TrajectoryStep
from arena.scoring import CaseScore, score_result

pytestmark = pytest.mark.unit

RAISED = "KeyError: '#W2'"
Call = tuple[str, dict[str, Any]] | tuple[str, dict[str, Any], str | None]

STORE: dict[str, Any] = {
    "id": "S-1",
    "input": "Cancel my pending order #W2, please.",
    "category": "happy_path",
    "tier": "critical",
    "expected_calls": [
        {"tool": "find_user", "args": {"email": "ann@example.com"}},
        {"tool": "cancel_order", "args": {"order_id": "#W2", "reason": "no longer needed"}},
    ],
    "expected_output_contains": ["cancelled"],
}


def case(**changes: Any) -> GoldenCase:
    return GoldenCase.model_validate({**STORE, **changes})


def result(*calls: Call, side_effecting: tuple[str, ...] = ("cancel_order",)) -> RunResult:
    steps = [
        TrajectoryStep(
            index=i, tool=call[0], args=call[1], error=call[2] if len(call) > 2 else None
        )
        for i, call in enumerate(calls)
    ]
    return RunResult(
        variant="v",
        variant_hash="h",
        case_id="S-1",
        case_hash="c",
        output="Your order #W2 is cancelled.",
        steps=steps,
        side_effecting=list(side_effecting),
    )


def find(email: str = "ann@example.com") -> Call:
    return ("find_user", {"email": email})


def cancel(order: str = "#W2", reason: str = "no longer needed") -> Call:
    return ("cancel_order", {"order_id": order, "reason": reason})


def hard(score: CaseScore) -> list[str]:
    return [r.text for r in score.fail_reasons if r.hard]


def test_the_gold_trajectory_passes() -> None:
    score = score_result(result(find(), cancel()), case())
    assert score.passed, score.fail_reasons
    assert score.components["trajectory.calls"] == 1.0
    assert score.components["trajectory.selection"] == 1.0


def test_an_extra_write_with_the_same_tool_is_a_hard_fail() -> None:
    score = score_result(result(find(), cancel(), cancel("#W9")), case())
    assert not score.passed
    assert hard(score) == [
        'cancel_order(order_id="#W9", reason="no longer needed") was called: '
        "not expected (side-effecting)"
    ]


def test_an_extra_call_of_a_read_only_tool_may_repeat() -> None:
    score = score_result(result(find(), find(), cancel()), case())
    assert score.passed, score.fail_reasons


def test_allow_extra_calls_lets_a_side_effecting_tool_repeat() -> None:
    lenient = case(allow_extra_calls=["cancel_order"])
    assert score_result(result(find(), cancel(), cancel("#W9")), lenient).passed


def test_a_duplicated_write_is_a_hard_fail() -> None:
    score = score_result(result(find(), cancel(), cancel()), case())
    assert not score.passed
    assert hard(score) == [
        'cancel_order(order_id="#W2", reason="no longer needed") was called: '
        "not expected (side-effecting)"
    ]


def test_a_missing_write_is_a_hard_fail_naming_the_call() -> None:
    score = score_result(result(find()), case())
    assert not score.passed
    assert hard(score) == [
        'cancel_order(order_id="#W2", reason="no longer needed") was not called: '
        "cancel_order was never called"
    ]


def test_a_string_matches_exactly_not_as_a_substring() -> None:
    """An id containing the expected one, and a zip+4 where the zip was expected."""
    score = score_result(result(find(), cancel("#W21")), case())
    assert not score.passed
    assert hard(score)[0] == (
        'cancel_order(order_id="#W2", reason="no longer needed") was not called: '
        'cancel_order(order_id="#W21", reason="no longer needed") differs, '
        'order_id: expected "#W2", got "#W21"'
    )
    zipcase = case(
        expected_calls=[{"tool": "change_address", "args": {"zip": "60621"}}],
    )
    zipped = result(("change_address", {"zip": "60621-1234"}), side_effecting=())
    assert 'zip: expected "60621", got "60621-1234"' in hard(score_result(zipped, zipcase))[0]


def test_a_list_with_one_extra_item_does_not_match() -> None:
    returns = case(
        expected_calls=[{"tool": "return_items", "args": {"item_ids": ["I1", "I2"]}}],
    )
    extra = result(("return_items", {"item_ids": ["I1", "I2", "I3"]}), side_effecting=())
    score = score_result(extra, returns)
    assert not score.passed
    assert "item_ids: expected a list of 2, got 3" in hard(score)[0]
    reordered = result(("return_items", {"item_ids": ["I2", "I1"]}), side_effecting=())
    assert not score_result(reordered, returns).passed
    loose = case(
        expected_calls=[
            {"tool": "return_items", "args": {"item_ids": {"unordered": ["I1", "I2"]}}}
        ],
    )
    assert score_result(reordered, loose).passed


def test_a_wrong_argument_in_the_second_call_of_a_tool_called_twice() -> None:
    twice = case(
        expected_calls=[
            {"tool": "cancel_order", "args": {"order_id": "#W2", "reason": "no longer needed"}},
            {"tool": "cancel_order", "args": {"order_id": "#W4", "reason": "no longer needed"}},
        ]
    )
    assert score_result(result(cancel(), cancel("#W4")), twice).passed
    wrong = score_result(result(cancel(), cancel("#W7")), twice)
    assert not wrong.passed
    assert hard(wrong) == [
        'cancel_order(order_id="#W4", reason="no longer needed") was not called: '
        'cancel_order(order_id="#W7", reason="no longer needed") differs, '
        'order_id: expected "#W4", got "#W7"',
        'cancel_order(order_id="#W7", reason="no longer needed") was called: '
        "not expected (side-effecting)",
    ]
    first = score_result(result(cancel("#W7"), cancel("#W4")), twice)
    assert not first.passed
    assert wrong.components["trajectory.calls"] == 0.5


def test_an_unnamed_argument_makes_a_different_call_unless_allowed() -> None:
    noted = ("cancel_order", {"order_id": "#W2", "reason": "no longer needed", "notify": True})
    score = score_result(result(find(), noted), case())
    assert not score.passed
    assert "notify=true not expected" in hard(score)[0]
    calls = [
        {"tool": "find_user", "args": {"email": "ann@example.com"}},
        {"tool": "cancel_order", "args": {"order_id": "#W2"}, "other_args": "allow"},
    ]
    assert score_result(result(find(), noted), case(expected_calls=calls)).passed


def test_numbers_match_by_value_never_a_bool() -> None:
    qty = case(expected_calls=[{"tool": "modify_items", "args": {"qty": 1}}])
    assert score_result(result(("modify_items", {"qty": 1.0}), side_effecting=()), qty).passed
    assert not score_result(result(("modify_items", {"qty": True}), side_effecting=()), qty).passed


def test_in_order_is_the_default() -> None:
    score = score_result(result(cancel(), find()), case())
    assert not score.passed
    assert hard(score) == [
        'calls out of the expected order: expected find_user(email="ann@example.com") → '
        'cancel_order(order_id="#W2", reason="no longer needed"), got '
        'cancel_order(order_id="#W2", reason="no longer needed") → '
        'find_user(email="ann@example.com")'
    ]
    assert score_result(result(find(), find("x@y.z"), cancel()), case()).passed


def test_unordered_accepts_any_order() -> None:
    any_order = case(calls_match="unordered")
    assert score_result(result(cancel(), find()), any_order).passed


def test_strict_allows_nothing_else() -> None:
    strict = case(calls_match="strict")
    assert score_result(result(find(), cancel()), strict).passed
    score = score_result(result(find(), find("x@y.z"), cancel()), strict)
    assert not score.passed
    assert hard(score) == [
        'find_user(email="x@y.z") was called: not expected (calls_match: strict)'
    ]


def test_a_call_that_raised_never_takes_an_expectation() -> None:
    score = score_result(result(find(), (*cancel(), RAISED)), case())  # type: ignore[arg-type]
    assert not score.passed
    assert hard(score) == [
        'cancel_order(order_id="#W2", reason="no longer needed") was not called: '
        "its call raised KeyError"
    ]


def test_without_expected_calls_expected_tools_bound_a_side_effecting_tool() -> None:
    legacy = case(
        expected_calls=[],
        expected_tools=["find_user", "cancel_order"],
        expected_args={"cancel_order": {"order_id": "#W2"}},
    )
    assert score_result(result(find(), cancel()), legacy).passed
    # the other pending order cancelled too: approximate args alone passed it
    score = score_result(result(find(), cancel(), cancel("#W9")), legacy)
    assert not score.passed
    assert hard(score) == [
        'cancel_order(order_id="#W9", reason="no longer needed") was called: '
        "not expected (side-effecting)"
    ]
    # an agent that declares nothing side-effecting keeps the old meaning
    assert score_result(result(find(), cancel(), cancel("#W9"), side_effecting=()), legacy).passed


def test_matchers_in_arguments() -> None:
    loose = case(
        expected_calls=[
            {"tool": "find_user", "args": {"email": {"regex": r"^ann@"}}},
            {
                "tool": "cancel_order",
                "args": {"order_id": "#W2", "reason": {"contains": "needed"}},
            },
        ]
    )
    assert score_result(result(find(), cancel(reason="not needed anymore")), loose).passed
    assert not score_result(result(find("bob@x.y"), cancel()), loose).passed


def test_bad_expected_calls_are_refused_naming_the_field() -> None:
    with pytest.raises(ValidationError) as caught:
        case(expected_calls=[{"tool": "cancel_order", "args": {"order_id": {"any": False}}}])
    [error] = caught.value.errors()
    assert error["loc"] == ("expected_calls", 0, "args")
    assert "order_id" in error["msg"]
    with pytest.raises(ValidationError, match="calls_match needs expected_calls"):
        case(expected_calls=[], calls_match="strict")


def test_unset_new_fields_keep_the_case_hash() -> None:
    plain = case(expected_calls=[])
    dumped = plain.model_dump(mode="json")
    for name in ("expected_calls", "calls_match", "allow_extra_calls"):
        assert name not in dumped
    assert case_hash(plain) != case_hash(case())


def test_a_tool_the_dataset_lacks_in_expected_calls_is_refused_naming_the_field(
    tmp_path: Path,
) -> None:
    path = tmp_path / "store.json"
    body = {"name": "store", "available_tools": ["find_user", "cancel_ordr"], "test_cases": [STORE]}
    path.write_text(json.dumps(body))
    with pytest.raises(InputError) as caught:
        load_dataset(path)
    assert (caught.value.case, caught.value.field) == ("S-1", "expected_calls")
    assert "cancel_order not in available_tools" in str(caught.value)


def test_two_expected_calls_need_two_calls() -> None:
    twice = case(
        expected_calls=[
            {"tool": "cancel_order", "args": {"order_id": "#W2", "reason": "no longer needed"}}
        ]
        * 2
    )
    score = score_result(result(cancel()), twice)
    assert not score.passed
    assert hard(score) == [
        'cancel_order(order_id="#W2", reason="no longer needed") was not called: '
        "each call of cancel_order met another expectation"
    ]
    assert score_result(result(cancel(), cancel()), twice).passed


def test_an_edit_dropping_an_expected_call_or_allowing_extra_calls_weakens_the_case() -> None:
    from arena.ci._previous import weakened_checks

    looser = case(expected_calls=STORE["expected_calls"][:1], allow_extra_calls=["cancel_order"])
    found = weakened_checks(case(), looser)
    assert [f.split(" ", 2)[:2] for f in found] == [
        ["expected_calls", "lost"],
        ["allow_extra_calls", "gained"],
    ]
    assert "#W2" in found[0]

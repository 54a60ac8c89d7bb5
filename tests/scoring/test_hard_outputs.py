"""Hard outputs (issue 45, items 3 and 1): a missing ``expected_output_contains`` string and an
``expected_files`` miss fail the case whatever its score, naming what is missing; an item
``{text, in: any_reply}`` may be in any assistant message of the run, a dialogue's included."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from arena.golden import case_hash
from arena.golden._models import GoldenCase
from arena.records.dialogue import Dialogue, DialogueTurn
from arena.records.results import RunResult, TrajectoryStep
from arena.scoring import PASS_THRESHOLD, CaseScore, score_result

pytestmark = pytest.mark.unit

BASE: dict[str, Any] = {
    "id": "R-1",
    "input": "Return the blue mug from order #W3.",
    "category": "happy_path",
    "expected_tools": ["return_items"],
    "expected_output_contains": ["return", "refund", "5 business days"],
}


def case(**changes: Any) -> GoldenCase:
    return GoldenCase.model_validate({**BASE, **changes})


def result(
    output: str,
    *,
    replies: list[str] | None = None,
    files: dict[str, str] | None = None,
    dialogue: Dialogue | None = None,
) -> RunResult:
    return RunResult(
        variant="v",
        variant_hash="h",
        case_id="R-1",
        case_hash="c",
        output=output,
        steps=[TrajectoryStep(index=0, tool="return_items", args={"order_id": "#W3"})],
        replies=replies or [],
        files=files or {},
        dialogue=dialogue,
    )


def hard(score: CaseScore) -> list[str]:
    return [r.text for r in score.fail_reasons if r.hard]


def test_one_missing_required_output_among_several_is_a_hard_fail_naming_it() -> None:
    score = score_result(result("Your return is booked; the refund follows."), case())
    assert score.score >= PASS_THRESHOLD
    assert not score.passed
    assert hard(score) == ["output missing: '5 business days'"]
    [reason] = [r for r in score.fail_reasons if r.hard]
    assert (reason.check, reason.kind) == ("contains", "output")


def test_every_missing_output_is_named() -> None:
    score = score_result(result("Booked."), case())
    assert hard(score) == [
        "output missing: 'return'",
        "output missing: 'refund'",
        ("output missing: '5 business days'"),
    ]
    alternatives = score_result(result("Booked."), case(expected_output_contains=[["xyz", "qrs"]]))
    assert hard(alternatives) == ["output missing: ['xyz' | 'qrs']"]


def test_all_outputs_present_pass() -> None:
    score = score_result(result("Return booked; refund in 5 business days."), case())
    assert score.passed, score.fail_reasons


def test_an_output_only_in_an_earlier_reply_fails_unless_the_case_says_any_reply() -> None:
    earlier = result(
        "Done: your refund will follow in 5 business days.",
        replies=["I'll book the return now.", "Done: your refund will follow in 5 business days."],
    )
    assert hard(score_result(earlier, case())) == ["output missing: 'return'"]
    anywhere = case(
        expected_output_contains=[
            {"text": "return", "in": "any_reply"},
            "refund",
            "5 business days",
        ]
    )
    assert score_result(earlier, anywhere).passed
    nowhere = result("Done: refund in 5 business days.", replies=["Let me check."])
    assert hard(score_result(nowhere, anywhere)) == ["output missing: 'return' (in any reply)"]


def test_any_reply_reads_every_reply_of_a_dialogue() -> None:
    dialogue = Dialogue(
        ended_by="script",
        turns=[
            DialogueTurn(index=1, user="Return my mug.", reply="Your return is booked."),
            DialogueTurn(index=2, user="And the money?", reply="Refund in 5 business days."),
        ],
    )
    talk = result("Refund in 5 business days.", dialogue=dialogue)
    assert hard(score_result(talk, case())) == ["output missing: 'return'"]
    anywhere = case(
        expected_output_contains=[{"text": ["return", "returned"], "in": "any_reply"}, "refund"]
    )
    assert score_result(talk, anywhere).passed


def test_a_final_item_written_as_a_mapping_reads_the_last_reply_only() -> None:
    final = case(expected_output_contains=[{"text": "return"}])
    earlier = result("Refund in 5 business days.", replies=["Return booked."])
    assert hard(score_result(earlier, final)) == ["output missing: 'return'"]


def test_output_items_are_validated() -> None:
    written = case(expected_output_contains=[{"text": ["x", "y"], "in": "any_reply"}])
    [item] = written.expected_output_contains
    assert not isinstance(item, str | list) and item.in_ == "any_reply"
    with pytest.raises(ValidationError):
        case(expected_output_contains=[{"text": "x", "in": "first_reply"}])
    with pytest.raises(ValidationError):
        case(expected_output_contains=[{"text": "  "}])


def test_string_items_keep_the_case_hash() -> None:
    """An existing case (plain strings) dumps as before; a mapping item dumps as written."""
    assert (
        case().model_dump(mode="json")["expected_output_contains"]
        == BASE["expected_output_contains"]
    )
    written = {"text": "return", "in": "any_reply"}
    assert case(expected_output_contains=[written]).model_dump(mode="json")[
        "expected_output_contains"
    ] == [written]
    assert case_hash(case()) == case_hash(GoldenCase.model_validate(dict(BASE)))


def test_an_expected_file_missing_or_incomplete_is_a_hard_fail() -> None:
    files = case(
        expected_output_contains=[],
        expected_files=[{"path": "returns/W3.txt", "contains": ["mug", "blue"]}],
    )
    good = result("Booked.", files={"returns/W3.txt": "blue mug"})
    assert score_result(good, files).passed
    missing = score_result(result("Booked."), files)
    assert not missing.passed
    assert hard(missing) == ["expected file missing: returns/W3.txt"]
    partial = score_result(result("Booked.", files={"returns/W3.txt": "a mug"}), files)
    assert partial.score >= PASS_THRESHOLD
    assert not partial.passed
    assert hard(partial) == ["expected file returns/W3.txt lacks: 'blue'"]
    [reason] = [r for r in partial.fail_reasons if r.hard]
    assert (reason.check, reason.kind) == ("functional", "side_effect")

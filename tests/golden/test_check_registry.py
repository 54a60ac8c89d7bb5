"""Golden checks as registered types: a new optional check changes no case hash, and it flows
through scoring, the gate's classification and the LangSmith export."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from arena.extend import GOLDEN_CHECKS
from arena.gate._classify import classify
from arena.golden._loader import case_hash, load_dataset
from arena.golden._models import GoldenCase
from arena.langsmith._examples import case_from_reference, case_to_example
from arena.records.results import RunResult
from arena.scoring import score_result
from arena.scoring._baseline import CaseRecord
from arena.scoring._types import Check
from arena.scoring.checks import CheckInput, FailReason, GoldenCheck, golden_checks

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
HASHES = json.loads((Path(__file__).with_name("case_hashes.json")).read_text())
"""Case hashes of the shipped datasets as computed before checks were registered types."""


class MaxWordsCheck(GoldenCheck):
    """The answer has at most ``expected_output_max_words`` words."""

    name = "max_words"
    summary = "the answer is at most N words long"
    fields = ("expected_output_max_words",)
    extra_fields: ClassVar[dict[str, tuple[Any, Any]]] = {"expected_output_max_words": (int, None)}

    def score(self, data: CheckInput) -> Check | None:
        limit = getattr(data.case, "expected_output_max_words", None)
        if limit is None:
            return None
        words = len(data.output.split())
        return Check(score=1.0 if words <= limit else 0.0, passed=words <= limit)

    def hard_fails(self, check: Check) -> list[str]:
        return [] if check.passed else ["output too long"]


@pytest.fixture
def max_words() -> Iterator[MaxWordsCheck]:
    check = MaxWordsCheck()
    GOLDEN_CHECKS.register("max_words", check)
    yield check
    del GOLDEN_CHECKS["max_words"]


def _shipped_hashes() -> dict[str, dict[str, str]]:
    return {
        name: {c.id: case_hash(c) for c in load_dataset(ROOT / "data/golden" / name).test_cases}
        for name in HASHES
    }


def test_shipped_case_hashes_are_the_stored_ones() -> None:
    now = _shipped_hashes()
    for name, stored in HASHES.items():
        assert {i: now[name][i] for i in stored["cases"]} == stored["cases"]


def test_registering_a_check_changes_no_case_hash(max_words: MaxWordsCheck) -> None:
    assert "max_words" in [c.name for c in golden_checks()]
    now = _shipped_hashes()
    for name, stored in HASHES.items():
        assert {i: now[name][i] for i in stored["cases"]} == stored["cases"]


def _case(**fields: object) -> GoldenCase:
    raw: dict[str, Any] = {"id": "MW-1", "input": "q", "category": "happy_path", **fields}
    return GoldenCase.model_validate(raw)


def test_a_check_field_needs_its_check_registered() -> None:
    with pytest.raises(ValueError, match="expected_output_max_words"):
        _case(expected_output_max_words=3)


def test_a_check_field_is_validated_by_its_type(max_words: MaxWordsCheck) -> None:
    with pytest.raises(ValueError, match="expected_output_max_words"):
        _case(expected_output_max_words="many")
    case = _case(expected_output_max_words="3")
    assert case.model_dump()["expected_output_max_words"] == 3
    assert case_hash(case) != case_hash(_case())


def _result(output: str) -> RunResult:
    return RunResult(variant="v", variant_hash="h", case_id="MW-1", case_hash="c", output=output)


def test_a_plugin_check_scores_fails_with_a_typed_reason_and_is_classified(
    max_words: MaxWordsCheck,
) -> None:
    case = _case(expected_output_contains=["300"], expected_output_max_words=2)
    good = score_result(_result("300 apples"), case)
    bad = score_result(_result("it is 300 apples in all"), case)
    assert good.passed and good.components["output.max_words"] == 1.0
    assert not bad.passed and bad.components["output.max_words"] == 0.0
    reason = next(r for r in bad.fail_reasons if r.check == "max_words")
    assert (reason.text, reason.kind, reason.hard) == ("output too long", "output", True)
    before = CaseRecord(
        category="happy_path", tier="standard", n=1, passes=1, components=good.components
    )
    now = CaseRecord(
        category="happy_path",
        tier="standard",
        n=1,
        passes=0,
        components=bad.components,
        fail_reasons=bad.fail_reasons,
    )
    assert classify(before, now) == ("output", "output too long")


def test_a_plugin_check_travels_to_langsmith_and_back(max_words: MaxWordsCheck) -> None:
    case = _case(expected_output_max_words=5)
    example = case_to_example(case)
    assert example["outputs"]["expected_output_max_words"] == 5
    back = case_from_reference(example["inputs"], example["outputs"], case_id="MW-1")
    assert getattr(back, "expected_output_max_words", None) == 5


def test_fail_reasons_are_stored_as_records_and_old_text_is_read() -> None:
    case = _case(forbidden_tools=["send_email"], expected_output_contains=["x"])
    scored = score_result(_result(""), case)
    stored = scored.model_dump(mode="json")["fail_reasons"]
    assert stored[0] == {"text": "empty output", "check": "output", "kind": "output", "hard": True}
    again = type(scored).model_validate(scored.model_dump(mode="json"))
    assert [r.record() for r in again.fail_reasons] == [r.record() for r in scored.fail_reasons]
    legacy = FailReason.coerce("forbidden tool called: send_email")
    assert (legacy.check, legacy.kind, legacy.hard) == ("trajectory", "trajectory", True)

"""``arena golden lint``'s rules about a check's fields are the check's own
(:meth:`GoldenCheck.lint`): the linter asks every registered check, it keeps no rule of its own
about the regex or the expected arguments (issue 47: the gate and lint ask the check)."""

from __future__ import annotations

import pytest

from arena.curation._lint import static_findings
from arena.golden import GoldenCase, GoldenDataset
from arena.scoring.checks import GOLDEN_CHECKS

pytestmark = pytest.mark.unit


def _case(**fields: object) -> GoldenCase:
    return GoldenCase.model_validate(
        {"id": "L-1", "input": "q", "category": "happy_path", **fields}
    )


def test_the_regex_check_says_when_its_pattern_nests_quantifiers() -> None:
    notes = GOLDEN_CHECKS.lookup("regex").lint(_case(expected_output_regex=r"(\w+\s?)+\."))
    assert [n.rule for n in notes] == ["nested_quantifier"]
    assert notes[0].message.startswith(r"expected_output_regex nests quantifiers in (\w+\s?)+")
    assert GOLDEN_CHECKS.lookup("regex").lint(_case(expected_output_regex=r"\d+ items")) == []


def test_the_trajectory_check_says_when_expected_args_match_approximately() -> None:
    case = _case(expected_tools=["refund"], expected_args={"refund": {"order_id": "#W2"}})
    notes = GOLDEN_CHECKS.lookup("trajectory").lint(case)
    assert [n.rule for n in notes] == ["approximate_args"]
    assert '"#W2" matches as a substring: "#W2-X" passes' in notes[0].message
    assert "another call of refund (another id) passes" in notes[0].message


def test_lint_reports_the_checks_notes_naming_the_case() -> None:
    dataset = GoldenDataset(
        name="d",
        available_tools=["lookup"],
        test_cases=[
            _case(expected_output_regex=r"(a+)+b"),
            _case(id="L-2", expected_args={"lookup": {"ids": ["u-1"]}}),
        ],
    )
    found = {f.rule: f for f in static_findings(dataset)}
    assert found["nested_quantifier"].cases == ["L-1"]
    assert found["nested_quantifier"].message.startswith("L-1: expected_output_regex nests")
    assert found["approximate_args"].cases == ["L-2"]
    assert found["approximate_args"].message.startswith("L-2: expected_args lookup.ids ")


def test_the_turns_check_owns_the_conversation_rules() -> None:
    never = {"contains": ["order"], "not_contains": ["order"]}
    case = _case(conversation={"turns": [{"user": "4471", "when": never}]})
    notes = GOLDEN_CHECKS.lookup("turns").lint(case)
    assert [n.rule for n in notes] == ["when_never_matches"]
    assert notes[0].message.startswith("the `when` of user turn 2 can never hold")
    assert GOLDEN_CHECKS.lookup("turns").lint(_case()) == []

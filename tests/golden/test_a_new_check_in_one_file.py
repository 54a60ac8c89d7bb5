"""A golden check added as one new file declares its own case field, how an edit weakens it
and what lint says of it: the gate and the linter ask the check, nothing else is touched."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.ci._previous import weakened_checks
from arena.curation import lint_dataset
from arena.golden import GoldenCase, GoldenDataset

pytestmark = pytest.mark.unit

_NEW_CHECK = '''
from typing import Any, ClassVar

from arena.extend import Check, CheckInput, GoldenCase, GoldenCheck, LintNote, golden_check


@golden_check("max_words", "the answer is at most N words")
class MaxWords(GoldenCheck):
    """At most ``expected_output_max_words`` words."""

    fields = ("expected_output_max_words", "max_words_excused")
    extra_fields: ClassVar[dict[str, tuple[Any, Any]]] = {
        "expected_output_max_words": (int, None),
        "max_words_excused": (list[str], []),
    }
    weakening = {"max_words_excused": "allowance"}

    def score(self, data: CheckInput) -> Check | None:
        limit = data.case.model_extra.get("expected_output_max_words")
        if limit is None:
            return None
        passed = len(data.output.split()) <= limit
        return Check(score=float(passed), passed=passed)

    def lint(self, case: GoldenCase) -> list[LintNote]:
        if case.model_extra.get("expected_output_max_words") == 0:
            return [LintNote("max_words_zero", "expected_output_max_words 0 fails every answer")]
        return []
'''


@pytest.fixture
def new_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check saved as one file and imported (the registries are restored after)."""
    (tmp_path / "_max_words_check.py").write_text(_NEW_CHECK)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "_max_words_check", raising=False)
    importlib.import_module("_max_words_check")


def _case(**fields: Any) -> GoldenCase:
    base = {"id": "W-1", "input": "Say hi", "category": "happy_path", "tier": "critical"}
    return GoldenCase.model_validate({**base, **fields})


def test_the_gate_asks_a_new_check_what_an_edit_weakened(new_check: None) -> None:
    before = _case(expected_output_max_words=5, max_words_excused=["greeting"])
    assert weakened_checks(before, _case(max_words_excused=["greeting"])) == [
        "expected_output_max_words removed"
    ]
    loosened = _case(expected_output_max_words=5, max_words_excused=["greeting", "long"])
    assert weakened_checks(before, loosened) == ['max_words_excused gained "long"']
    assert weakened_checks(before, before) == []


def test_lint_asks_a_new_check_what_it_says_of_a_case(new_check: None) -> None:
    cases = [_case(expected_output_max_words=0), _case(id="W-2")]
    dataset = GoldenDataset(name="words", version="1", available_tools=[], test_cases=cases)
    found = [f for f in lint_dataset(dataset).findings if f.rule == "max_words_zero"]
    assert [(f.severity, f.cases, f.message) for f in found] == [
        ("warning", ["W-1"], "W-1: expected_output_max_words 0 fails every answer")
    ]


STATE = {"orders/#W1": {"status": "cancelled"}}


def test_the_builtins_weaken_by_what_they_declare_and_say_nothing_new_in_lint() -> None:
    before = _case(expected_tools=["t"], expected_state=STATE)
    assert weakened_checks(before, _case(expected_state=STATE)) == ['expected_tools lost "t"']
    # the state check declares its fields too (before: no hand entry, never weakened)
    assert weakened_checks(before, _case(expected_tools=["t"])) == ["expected_state removed"]
    allowed = _case(expected_tools=["t"], expected_state=STATE, state_may_change=["orders/*"])
    assert weakened_checks(before, allowed) == ['state_may_change gained "orders/*"']
    dataset = GoldenDataset(name="d", version="1", available_tools=["t"], test_cases=[before])
    rules = {f.rule for f in lint_dataset(dataset).findings}
    assert rules <= {"small_category", "missing_reference"}

"""How an edit of a case weakens a golden check is the check's own declaration
(:attr:`GoldenCheck.weakening`): every built-in declares each field it reads, and the gate
(:func:`arena.ci._previous.weakened_checks`) asks the registered checks, a new one included,
with no list of fields of its own."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

import arena.scoring.checks
from arena.ci._previous import weakened_checks
from arena.golden import GoldenCase
from arena.scoring.checks import GOLDEN_CHECKS, WEAKENINGS, golden_checks

pytestmark = pytest.mark.unit

BUILT_IN_KINDS = {
    "expected_tools": "items",
    "expected_order": "items",
    "expected_args": "mapping",
    "expected_output_contains": "items",
    "expected_output_not_contains": "items",
    "expected_output_regex": "single",
    "expected_output_exact": "single",
    "expected_files": "items",
    "forbidden_tools": "items",
    "acceptable_tools": "allowance",
    "max_steps": "limit",
    "min_tool_calls": "floor",
    "expected_behavior": "single",
    "rubric": "single",
    "conversation": "single",
    "expected_calls": "items",
    "calls_match": "none",
    "allow_extra_calls": "allowance",
    "expected_tool_errors": "allowance",
    "expected_route": "items",
    "route_match": "single",
    "forbidden_nodes": "items",
    "max_supersteps": "limit",
    "expected_graph_trajectory": "single",
    "expected_state": "single",
    "state_may_change": "allowance",
}
"""How each field a built-in check reads weakens (the gate's former hand lists, and the
state check's two fields)."""


def test_every_field_a_builtin_check_reads_declares_how_an_edit_weakens_it() -> None:
    declared: dict[str, str] = {}
    for check in golden_checks():
        assert GOLDEN_CHECKS.is_builtin(check.name), check.name
        undeclared = [f for f in (*check.fields, *check.extra_fields) if f not in check.weakening]
        assert undeclared == [], f"{check.name} leaves {undeclared} to the default"
        assert set(check.weakening) <= {*GoldenCase.model_fields, *check.extra_fields}
        for field, how in check.weakening.items():
            assert how in WEAKENINGS
            # a field read by several checks weakens the same way whichever is asked
            assert declared.setdefault(field, how) == how, (check.name, field)
    assert declared == BUILT_IN_KINDS


EVERYTHING: dict[str, Any] = {
    "id": "E-1",
    "input": "Refund order #1 and cite the policy",
    "category": "billing",
    "tier": "critical",
    "expected_tools": ["refund"],
    "expected_order": ["lookup", "refund"],
    "expected_args": {"refund": {"order_id": "#1"}, "lookup": {"order_id": "#1"}},
    "expected_output_contains": ["refunded"],
    "expected_output_not_contains": ["sorry"],
    "expected_output_regex": "#\\d+",
    "expected_output_exact": "Refunded.",
    "expected_files": [{"path": "refund.txt"}],
    "forbidden_tools": ["delete"],
    "max_steps": 3,
    "min_tool_calls": 2,
    "expected_behavior": "refuse",
    "rubric": "cites the policy",
    "conversation": {"turns": [{"user": "Yes, #1"}]},
    "expected_calls": [{"tool": "refund", "args": {"order_id": "#1"}}],
    "expected_route": ["router", "billing"],
    "route_match": "strict",
    "forbidden_nodes": ["decline"],
    "max_supersteps": 4,
    "expected_graph_trajectory": {"steps": [["router"], ["billing"]]},
    "expected_state": {"orders/#1": {"status": "refunded"}},
}
LOOSENED: dict[str, Any] = {
    "expected_args": {"lookup": {"order_id": "#2"}},
    "acceptable_tools": [["refund", "credit"]],
    "max_steps": 9,
    "allow_extra_calls": ["lookup"],
    "expected_tool_errors": ["refund"],
    "state_may_change": ["orders/*"],
}


def test_phrases_come_by_kind_then_in_the_order_of_the_case_fields() -> None:
    before = GoldenCase.model_validate(EVERYTHING)
    kept = {k: v for k, v in EVERYTHING.items() if k in ("id", "input", "category", "tier")}
    after = GoldenCase.model_validate({**kept, **LOOSENED})
    assert weakened_checks(before, after) == [
        'expected_tools lost "refund"',
        'expected_order lost "lookup", "refund"',
        'expected_output_contains lost "refunded"',
        'expected_output_not_contains lost "sorry"',
        'expected_files lost {"contains": [], "path": "refund.txt"}',
        'forbidden_tools lost "delete"',
        'expected_calls lost {"args": {"order_id": "#1"}, "tool": "refund"}',
        'expected_route lost "router", "billing"',
        'forbidden_nodes lost "decline"',
        "expected_args changed for refund, lookup",
        "expected_output_regex removed",
        "expected_output_exact removed",
        "expected_behavior removed",
        "rubric removed",
        "conversation removed",  # read by the turns and the route checks: named once
        "route_match removed",
        "expected_graph_trajectory removed",
        "expected_state removed",
        'acceptable_tools gained ["refund", "credit"]',
        'allow_extra_calls gained "lookup"',
        'expected_tool_errors gained "refund"',
        'state_may_change gained "orders/*"',
        "max_steps 3 -> 9",
        "max_supersteps 4 -> none",
        "min_tool_calls 2 -> 0",
    ]


_NEW_CHECK = '''
from typing import Any, ClassVar

from arena.scoring._types import Check
from arena.scoring.checks._base import CheckInput, GoldenCheck, Weakening, golden_check


@golden_check("budget", "each tool within its call budget, and enough citations", order=120)
class BudgetCheck(GoldenCheck):
    """At most ``tool_budget[tool]`` calls of each tool, ``min_citations`` citations."""

    component = "budget"
    kind = "trajectory"
    fields = ("tool_budget", "min_citations", "expected_tools")
    extra_fields: ClassVar[dict[str, tuple[Any, Any]]] = {
        "tool_budget": (dict[str, int], {}),
        "min_citations": (int, 0),
    }
    weakening: ClassVar[dict[str, Weakening]] = {
        "tool_budget": "mapping",
        "min_citations": "floor",
        "expected_tools": "single",  # the trajectory check, first to read it, is asked
    }

    def score(self, data: CheckInput) -> Check | None:
        return None
'''


@pytest.fixture
def new_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check saved as one new file of the checks' package (the registry is restored
    after, by the suite's fixture)."""
    (tmp_path / "_budget.py").write_text(_NEW_CHECK)
    package = arena.scoring.checks
    monkeypatch.setattr(package, "__path__", [*package.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "arena.scoring.checks._budget", raising=False)
    importlib.import_module("arena.scoring.checks._budget")


def test_a_new_check_in_one_file_is_asked_of_its_mapping_and_its_floor(new_check: None) -> None:
    assert GOLDEN_CHECKS.is_builtin("budget")
    fields = {"id": "B-1", "input": "Find and cite", "category": "research", "tier": "critical"}
    before = GoldenCase.model_validate(
        {
            **fields,
            "expected_tools": ["search"],
            "expected_args": {"search": {"q": "refunds"}},
            "min_tool_calls": 2,
            "tool_budget": {"search": 3, "fetch": 1},
            "min_citations": 2,
        }
    )
    after = GoldenCase.model_validate({**fields, "tool_budget": {"search": 5}})
    assert weakened_checks(before, after) == [
        'expected_tools lost "search"',
        "expected_args changed for search",
        "tool_budget changed for search, fetch",
        "min_tool_calls 2 -> 0",
        "min_citations 2 -> 0",
    ]
    kept = before.model_copy(update={"min_citations": 3, "tool_budget": {"search": 3}})
    assert weakened_checks(before, kept) == ["tool_budget changed for fetch"]
    assert weakened_checks(before, before) == []

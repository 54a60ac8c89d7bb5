"""A survivor's reason reads right for one tool, two swapped tools and one case run."""

from __future__ import annotations

import pytest

from arena.golden import GoldenCase
from arena.mutation._why import _tool_reason

pytestmark = pytest.mark.unit


def _case(case_id: str) -> GoldenCase:
    return GoldenCase.model_validate({"id": case_id, "input": "Q?", "category": "happy_path"})


def test_a_swap_of_two_tools_no_case_calls_says_neither() -> None:
    cases = [_case("A-1"), _case("A-2")]
    reason = _tool_reason("tools_swapped", ["search", "write"], cases, {})
    assert reason == (
        "no case calls `search` or `write`: the original called neither on the 2 cases run"
    )


def test_one_tool_on_one_case_is_singular() -> None:
    reason = _tool_reason("tool_raises", ["search"], [_case("A-1")], {})
    assert reason == "no case calls `search`: the original never called it on the 1 case run"

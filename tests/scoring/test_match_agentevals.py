"""Trajectory matching: where it differs from agentevals 0.0.9, and the compatible switch.

The expected agentevals results were checked against agentevals 0.0.9's own scorers (and a
20,000-case random comparison agreed on every case with ``agentevals_compatible=True``).
"""

from __future__ import annotations

from typing import Any

import pytest

from arena.scoring._match import ToolCall, match_trajectory

pytestmark = pytest.mark.unit


def call(name: str, **args: Any) -> ToolCall:
    return ToolCall(name=name, args=args)


def test_a_maximum_matching_where_agentevals_is_greedy() -> None:
    agent = [call("search", q="a", lang="en"), call("search", q="a")]
    ref = [call("search", q="a"), call("search", q="a", lang="en")]
    assert match_trajectory(agent, ref, "superset", "superset").matched
    compat = match_trajectory(agent, ref, "superset", "superset", agentevals_compatible=True)
    assert not compat.matched and compat.matched_pairs == 1 and compat.score == 0.5


@pytest.mark.parametrize(
    ("mode", "args_mode", "ours", "agentevals"),
    [
        # the agent left out a reference argument: agent args are a subset of the reference's
        ("subset", "subset", True, False),
        ("subset", "superset", False, True),
        ("unordered", "subset", True, False),  # agentevals checks both directions
        ("superset", "subset", True, True),  # superset reads agent against reference in both
        ("strict", "subset", True, True),
    ],
)
def test_b_argument_direction(mode: Any, args_mode: Any, ours: bool, agentevals: bool) -> None:
    agent = [call("search", q="a")]
    ref = [call("search", q="a", lang="en")]
    assert match_trajectory(agent, ref, mode, args_mode).matched is ours
    compat = match_trajectory(agent, ref, mode, args_mode, agentevals_compatible=True)
    assert compat.matched is agentevals
    # agentevals' subset mode with "superset" args is our subset mode with "subset" args
    if mode == "subset":
        swapped = "superset" if args_mode == "subset" else "subset"
        assert match_trajectory(agent, ref, mode, swapped).matched is agentevals


def test_c_strict_compares_positions() -> None:
    ref = [call("search", q="a"), call("calc", e="1+1")]
    assert not match_trajectory(ref[::-1], ref, "strict").matched
    assert not match_trajectory(ref[::-1], ref, "strict", agentevals_compatible=True).matched


def test_d_empty_key_list_and_json_values() -> None:
    agent, ref = [call("search", q="a")], [call("search", q="b")]
    assert match_trajectory(agent, ref, "strict", "exact", {"search": []}).matched
    assert not match_trajectory(
        agent, ref, "strict", "exact", {"search": []}, agentevals_compatible=True
    ).matched
    tup, lst = [call("plot", xs=(1, 2))], [call("plot", xs=[1, 2])]
    assert not match_trajectory(tup, lst, "strict").matched
    assert match_trajectory(tup, lst, "strict", agentevals_compatible=True).matched


def test_compatible_switch_keeps_partial_credit_denominators() -> None:
    ref = [call("search", q="a"), call("calc", e="1")]
    verdict = match_trajectory([ref[0]], ref, "superset", agentevals_compatible=True)
    assert not verdict.matched and verdict.score == 0.5
    verdict = match_trajectory([*ref, call("x")], ref, "subset", agentevals_compatible=True)
    assert not verdict.matched and verdict.score == pytest.approx(2 / 3)
    assert match_trajectory([], [], "unordered", agentevals_compatible=True).score == 1.0

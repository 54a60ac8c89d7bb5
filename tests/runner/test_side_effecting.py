"""Side-effecting tools declared by the agent, on its factory or in a tool's metadata, are
recorded by the runner with each result (and stored), so the scorer can fail a call the case
does not expect (issue 45, item 2); the text of every assistant message is recorded too, an
intermediate one before a tool call included (item 3: ``in: any_reply``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from arena.golden import load_dataset
from arena.models import register_fake
from arena.records.results import RunResult
from arena.scoring import score_result
from arena.storage import Store
from tests.runner.test_tool_accounting import _run as run_case

pytestmark = pytest.mark.unit

CASE = {
    "input": "Refund 5 on ORD-1.",
    "expected_calls": [{"tool": "refund", "args": {"order_id": "ORD-1", "amount": 5}}],
    "expected_output_contains": [{"text": "one moment", "in": "any_reply"}, "refunded"],
}


def _script(name: str, orders: list[str]) -> None:
    """A reply that says a word and refunds each order, then the answer."""
    message = AIMessage(
        content="One moment, please.",
        tool_calls=[
            {"name": "refund", "args": {"order_id": o, "amount": 5}, "id": f"c{i}"}
            for i, o in enumerate(orders)
        ],
    )

    def reply(messages: list[BaseMessage]) -> Any:
        return "Done: refunded." if isinstance(messages[-1], ToolMessage) else message

    register_fake(name, [reply], cycle=True)


def _run(tmp_path: Path, store: Store, factory: str, orders: list[str]) -> RunResult:
    script = f"side-{factory}-{len(orders)}"
    _script(script, orders)
    result, _ = run_case(tmp_path, store, factory, script, CASE)
    return result


@pytest.mark.parametrize("factory", ["declares_refund", "marks_refund"])
def test_declared_side_effecting_tools_are_recorded_stored_and_scored(
    tmp_path: Path, store: Store, factory: str
) -> None:
    result = _run(tmp_path, store, factory, ["ORD-1"])
    assert result.side_effecting == ["refund"]
    assert result.replies == ["One moment, please.", "Done: refunded."]
    (stored,) = store.results(result.run_id or 0)
    assert (stored.side_effecting, stored.replies) == (result.side_effecting, result.replies)
    case = load_dataset(tmp_path / "golden.json").case("S-1")
    assert score_result(stored, case).passed, score_result(stored, case).fail_reasons


def test_a_second_refund_the_case_does_not_expect_fails_it(tmp_path: Path, store: Store) -> None:
    result = _run(tmp_path, store, "declares_refund", ["ORD-1", "ORD-2"])
    case = load_dataset(tmp_path / "golden.json").case("S-1")
    score = score_result(result, case)
    assert not score.passed
    assert [r.text for r in score.fail_reasons if r.hard] == [
        'refund(order_id="ORD-2", amount=5) was called: not expected (side-effecting)'
    ]


def test_an_agent_that_declares_nothing_records_nothing(tmp_path: Path, store: Store) -> None:
    result = _run(tmp_path, store, "with_tool_node", ["ORD-1", "ORD-2"])
    assert result.side_effecting == []
    assert "side_effecting" not in result.model_dump()


def test_a_side_effecting_tool_the_factory_does_not_declare_is_refused() -> None:
    from arena.agents import agent_factory
    from tests.agents.support_agents import TOOLS

    with pytest.raises(ValueError, match="does not declare: cancel_order"):
        agent_factory(tools=TOOLS, side_effecting=["refund", "cancel_order"])
    with pytest.raises(ValueError, match="must be a list of tool names"):
        agent_factory(side_effecting="refund")

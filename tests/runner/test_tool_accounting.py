"""Tool accounting matches what ran: one executed call is one recorded step whether or not
the executor passes a ``tool_call_id``, and a call to a tool the variant lacks never satisfies
``expected_tools`` and counts as hallucinated (issue 25, build point 3).

The agents are real LangGraph graphs (tests/agents/support_agents.py) on scripted models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from arena.golden import GoldenDataset, load_dataset
from arena.models import register_fake
from arena.records.results import RunResult, TrajectoryStep
from arena.runner import RunOptions, run_suite
from arena.scoring import score_result
from arena.storage import Store
from arena.variants.variant import load_variant

pytestmark = pytest.mark.unit

AGENTS = "tests.agents.support_agents"
FACTORIES = ["with_tool_node", "hand_written"]


def _script(name: str, calls: list[dict[str, Any]], answer: str) -> None:
    """One reply with ``calls`` (name, args), then ``answer`` once a tool has answered."""
    message = AIMessage(
        content="",
        tool_calls=[
            {"name": c["name"], "args": c["args"], "id": f"call_{i}", "type": "tool_call"}
            for i, c in enumerate(calls)
        ],
    )

    def reply(messages: list[BaseMessage]) -> Any:
        return answer if any(isinstance(m, ToolMessage) for m in messages) else message

    register_fake(name, [reply], cycle=True)


def _run(
    tmp_path: Path, store: Store, factory: str, script: str, case: dict[str, Any], extra: str = ""
) -> tuple[RunResult, GoldenDataset]:
    variant = tmp_path / "v.yaml"
    variant.write_text(
        f"name: v\nagent: '{AGENTS}:{factory}'\nmodel: {{spec: 'fake:{script}'}}\n{extra}"
    )
    golden = tmp_path / "golden.json"
    tools = ["search_faq", "order_status", "refund"]
    case = {"id": "S-1", "category": "happy_path", **case}
    golden.write_text(
        json.dumps({"name": "support", "available_tools": tools, "test_cases": [case]})
    )
    dataset = load_dataset(golden)
    report = run_suite(store, dataset, [load_variant(variant)], RunOptions(progress=False))
    (result,) = report.results
    assert result.error is None, result.error
    return result, dataset


@pytest.mark.parametrize("factory", FACTORIES)
def test_one_executed_call_is_one_step_with_or_without_a_tool_call_id(
    tmp_path: Path, store: Store, factory: str
) -> None:
    calls = [
        {"name": "order_status", "args": {"order_id": "ORD-1"}},
        {"name": "order_status", "args": {"order_id": "ORD-2"}},
        {"name": "refund", "args": {"order_id": "ORD-1", "amount": -5}},
    ]
    _script(f"acct-{factory}", calls, "ORD-1 and ORD-2 have shipped.")
    case = {"input": "Where are my orders ORD-1 and ORD-2?", "expected_tools": ["order_status"]}
    result, _ = _run(tmp_path, store, factory, f"acct-{factory}", case)
    # on main the hand-written executor recorded six steps: each call, then its tool run
    assert [(s.tool, s.args) for s in result.steps] == [(c["name"], c["args"]) for c in calls]
    first, second, bad = result.steps
    assert "ORD-1: shipped" in first.observation and first.error is None
    assert "ORD-2: shipped" in second.observation and second.error is None
    assert bad.error and "must be positive" in bad.error and not bad.unavailable


@pytest.mark.parametrize("factory", FACTORIES)
def test_a_call_to_a_tool_the_variant_lacks_never_satisfies_expected_tools(
    tmp_path: Path, store: Store, factory: str
) -> None:
    calls = [{"name": "search_faq", "args": {"query": "refund delay"}}]
    _script(f"lacks-{factory}", calls, "Refunds take 5 working days.")
    case = {
        "input": "How long does a refund take?",
        "expected_tools": ["search_faq"],
        "expected_output_contains": ["5 working days"],
    }
    result, dataset = _run(
        tmp_path, store, factory, f"lacks-{factory}", case, "tools: [order_status, refund]\n"
    )
    (step,) = result.steps
    assert step.tool == "search_faq" and step.unavailable
    assert step.error and "not one of this variant's tools (order_status, refund)" in step.error
    score = score_result(
        result, dataset.test_cases[0], available_tools=set(dataset.available_tools)
    )
    trajectory = score.details["trajectory"]
    # on main: selection 1.0, trajectory 1.0, hallucinated_tools [] and the case passed
    assert trajectory["hallucinated_tools"] == ["search_faq"]
    assert score.components["trajectory.selection"] == 0.0
    assert trajectory["tools"] == ["search_faq (unavailable)"]
    assert not score.passed


def test_forbidden_stays_forbidden_and_min_calls_skip_unavailable_calls() -> None:
    from arena.golden import GoldenCase
    from arena.scoring._tool_use import score_trajectory

    steps = [
        TrajectoryStep(index=0, tool="refund", error="unavailable tool: refund is not one ..."),
        TrajectoryStep(index=1, tool="order_status", args={"order_id": "ORD-1"}),
    ]
    result = RunResult(variant="v", variant_hash="h", case_id="S-1", case_hash="c", steps=steps)
    case = GoldenCase.model_validate(
        {
            "id": "S-1",
            "input": "status?",
            "category": "happy_path",
            "expected_tools": ["order_status"],
            "expected_args": {"refund": {"order_id": "ORD-1"}},
            "forbidden_tools": ["refund"],
            "min_tool_calls": 2,
        }
    )
    check = score_trajectory(result, case)
    assert check.details["forbidden"]["violations"] == ["refund"] and not check.passed
    assert check.details["min_calls"]["calls"] == 1
    assert check.details["args"]["tools"]["refund"]["called"] is False
    assert check.details["selection"]["precision"] == 0.5


def test_tool_nodes_inside_compiled_sub_graphs_are_found() -> None:
    from langchain_core.tools import tool
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    from arena.agents import graph_tool_names
    from tests.agents.support_agents import order_status, refund

    inner = StateGraph(MessagesState)
    inner.add_node("tools", ToolNode([tool(order_status), tool(refund)]))
    inner.add_edge(START, "tools")
    inner.add_edge("tools", END)
    outer = StateGraph(MessagesState)
    outer.add_node("router", lambda state: {})
    outer.add_node("support", inner.compile())
    outer.add_edge(START, "router")
    outer.add_edge("router", "support")
    outer.add_edge("support", END)
    assert graph_tool_names(outer.compile()) == {"order_status", "refund"}  # main: None


@pytest.mark.parametrize(
    ("error", "unavailable"),
    [
        ("unavailable tool: refund is not one of this variant's tools (order_status)", True),
        ("refund is not an available tool", True),  # stored before the mark
        ("Error: refund is not a valid tool, try one of [order_status].", True),  # ToolNode's
        ("Error: order_status is not a valid tool, try one of [refund].", False),
        ("ValueError: the amount must be positive", False),
        (None, False),
    ],
)
def test_stored_calls_to_unavailable_tools_are_told_by_their_error(
    error: str | None, unavailable: bool
) -> None:
    assert TrajectoryStep(index=0, tool="refund", error=error).unavailable is unavailable

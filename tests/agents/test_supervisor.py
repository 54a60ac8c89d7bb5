"""Supervisor routing with scripted models (the seeds' routing tests) and a full fake run."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage

from arena.agents.research import decompose_task, default_subtasks, supervisor_route
from arena.agents.research.supervisor import FINISH, SupervisorState
from arena.golden import GoldenDataset
from arena.models import ModelConfig, make_chat_model, register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from tests.agents.gdp_supervisor import gdp_supervisor_reply

pytestmark = pytest.mark.unit


def _model(name: str, replies: list[Any]):  # type: ignore[no-untyped-def]
    register_fake(name, replies)
    return make_chat_model(ModelConfig(spec=f"fake:{name}"))


def _state(**overrides: Any) -> SupervisorState:
    base: dict[str, Any] = {
        "original_query": "Test",
        "messages": [HumanMessage("Test")],
        "sub_tasks": [],
        "current_agent": "",
        "agent_results": {},
        "iteration_count": 0,
        "max_iterations": 10,
        "workers_called": [],
        "final_report": None,
        "status": "decomposing",
    }
    base.update(overrides)
    return base  # type: ignore[return-value]


async def test_decompose_produces_subtasks() -> None:
    plan = [
        {"id": "r", "description": "Search", "assigned_to": "researcher"},
        {"id": "a", "description": "Analyze", "assigned_to": "analyst"},
        {"id": "w", "description": "Write", "assigned_to": "writer"},
    ]
    result = await decompose_task(
        _state(original_query="Research RAG"), _model("dec", [json.dumps(plan)])
    )
    assert len(result["sub_tasks"]) == 3 and result["current_agent"] == "researcher"


@pytest.mark.parametrize(
    "reply",
    [
        "Not JSON",
        "[]",
        '[{"id": 1}]',
        '{"oops": true}',
        '[{"description": "x", "assigned_to": "chef"}]',
    ],
)
async def test_decompose_invalid_json_falls_back(reply: str) -> None:
    result = await decompose_task(_state(), _model("dec-bad", [reply]))
    assert result["sub_tasks"] == default_subtasks("Test")
    assert result["current_agent"] == "researcher"


async def test_routes_to_analyst_after_researcher() -> None:
    decision = {"next_agent": "analyst", "task_for_agent": "Analyze", "reasoning": "data"}
    result = await supervisor_route(
        _state(
            status="executing", agent_results={"researcher": "..."}, workers_called=["researcher"]
        ),
        _model("route-a", [json.dumps(decision)]),
    )
    assert result["current_agent"] == "analyst" and result["task_for_agent"] == "Analyze"


async def test_routes_to_finish() -> None:
    decision = {"next_agent": "FINISH", "task_for_agent": "", "reasoning": "done"}
    result = await supervisor_route(
        _state(
            status="executing",
            agent_results={"researcher": ".", "analyst": ".", "writer": "."},
            workers_called=["researcher", "analyst", "writer"],
        ),
        _model("route-f", [json.dumps(decision)]),
    )
    assert result["current_agent"] == FINISH and result["status"] == "complete"


async def test_max_iterations_forces_finish_without_a_model_call() -> None:
    script = register_fake("route-max", ["never used"])
    model = make_chat_model(ModelConfig(spec="fake:route-max"))
    result = await supervisor_route(
        _state(status="executing", iteration_count=10, max_iterations=10), model
    )
    assert result["current_agent"] == FINISH and not script.calls


async def test_iteration_increments() -> None:
    decision = {"next_agent": "researcher", "task_for_agent": "More", "reasoning": "more"}
    result = await supervisor_route(
        _state(status="executing", iteration_count=3), _model("route-i", [json.dumps(decision)])
    )
    assert result["iteration_count"] == 4


async def test_unreadable_route_falls_back_to_next_planned_worker() -> None:
    result = await supervisor_route(
        _state(
            status="executing",
            sub_tasks=default_subtasks("Test"),
            workers_called=["researcher"],
            agent_results={"researcher": "x"},
        ),
        _model("route-bad", ["I think the analyst"]),
    )
    assert result["current_agent"] == "analyst"


async def test_finish_before_writer_goes_to_writer() -> None:
    decision = {"next_agent": "FINISH", "task_for_agent": "", "reasoning": "early"}
    result = await supervisor_route(
        _state(
            status="executing", agent_results={"researcher": "facts"}, workers_called=["researcher"]
        ),
        _model("route-early", [json.dumps(decision)]),
    )
    assert result["current_agent"] == "writer"


def _supervisor_script(messages: list[BaseMessage]) -> Any:
    reply = gdp_supervisor_reply(messages)
    return reply if reply is not None else "Final: 5% of Japan's GDP is 210 billion US dollars."


def test_supervisor_run_tags_sub_agent_tool_calls(store: Store) -> None:
    register_fake("sup", [_supervisor_script], cycle=True)
    dataset = GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": ["search_web", "calculate"],
            "test_cases": [
                {
                    "id": "MS",
                    "input": "Look up Japan's GDP and calculate 5% of it",
                    "category": "multi_step",
                }
            ],
        }
    )
    variant = Variant.model_validate(
        {"name": "sup", "agent": "supervisor", "model": {"spec": "fake:sup"}}
    )
    (result,) = run_suite(store, dataset, [variant], RunOptions(progress=False)).results
    assert result.error is None
    assert [(s.agent, s.tool) for s in result.steps] == [
        ("researcher", "search_web"),
        ("analyst", "calculate"),
    ]
    assert "4.2 trillion" in result.steps[0].observation
    assert result.steps[1].observation == "210000000000"
    assert result.output.startswith("Final: 5% of Japan's GDP")

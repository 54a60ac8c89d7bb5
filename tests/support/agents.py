"""Bring-your-own agent factories and scripted replies used by the tests."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableLambda

from arena.agents import AgentContext


def calculator_script(messages: list[BaseMessage]) -> Any:
    """Call calculate on the question's numbers, then answer with the observation."""
    last = messages[-1]
    if isinstance(last, ToolMessage):
        return f"The answer is {last.content}."
    humans = [m for m in messages if isinstance(m, HumanMessage)]
    question = str(humans[-1].content) if humans else ""
    if "%" in question:
        return {"tool": "calculate", "args": {"expression": "0.25 * 1200"}}
    return "I can only calculate."


def slow_agent(ctx: AgentContext) -> Any:
    """Sleeps ARENA_TEST_SLEEP seconds, then answers (for timeout and SIGKILL tests)."""
    delay = float(os.environ.get("ARENA_TEST_SLEEP", "0.2"))

    async def run(state: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(delay)
        question = state["messages"][-1].content
        return {"messages": [*state["messages"], AIMessage(f"slow answer to {question}")]}

    return RunnableLambda(run)

"""Agent factories and scripts for the hostile-input tests, importable by `arena run`
subprocesses (``agent: tests.agents.hostile_agents:NAME``, ``model: {spec: 'fake:hostile-calc'}``).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import RunnableLambda

from arena.agents import AgentContext
from arena.models import register_fake

HOSTILE_EXPRESSION = "round(7, -10**9)"


def calculator_script(messages: list[BaseMessage]) -> Any:
    """Calculate (a hostile expression when the question says HOSTILE), then report it."""
    last = messages[-1]
    if isinstance(last, ToolMessage):
        return f"Result: {last.content}"
    humans = [m for m in messages if isinstance(m, HumanMessage)]
    question = str(humans[-1].content) if humans else ""
    expression = HOSTILE_EXPRESSION if "HOSTILE" in question else "6 * 7"
    return {"tool": "calculate", "args": {"expression": expression}}


register_fake("hostile-calc", [calculator_script], cycle=True)


def react_calculator(ctx: AgentContext) -> Any:
    """The built-in react agent, built through the bring-your-own factory path."""
    from arena.agents.research.react import build_react_agent

    return build_react_agent(ctx.model, ctx.tools, ctx.system_prompt, ctx.max_steps)


def sandbox_prober(ctx: AgentContext) -> Any:
    """Writes a marker into its sandbox folder, waits, then reports what the folder holds
    (another task sharing or wiping the folder shows up in the answer)."""
    folder = Path(ctx.sandbox_dir)
    delay = float(os.environ.get("ARENA_TEST_SLEEP", "0.05"))

    async def run(state: dict[str, Any]) -> dict[str, Any]:
        marker = f"{ctx.variant.name}.txt"
        (folder / marker).write_text(str(folder))
        await asyncio.sleep(delay)
        seen = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else ["<wiped>"]
        answer = f"folder={folder} seen={','.join(seen)}"
        return {"messages": [*state["messages"], AIMessage(answer)]}

    return RunnableLambda(run)


def returns_none(ctx: AgentContext) -> Any:
    """Not an agent."""
    return None


def returns_text(ctx: AgentContext) -> Any:
    """Not an agent either."""
    return "I am an agent"


def exits(ctx: AgentContext) -> Any:
    """Tries to end the whole run."""
    raise SystemExit(3)


def takes_two(ctx: AgentContext, other: Any) -> Any:
    """Wrong signature for a factory."""
    return RunnableLambda(lambda state: state)


NOT_CALLABLE = 42

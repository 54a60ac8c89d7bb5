"""Turn a variant into a runnable agent: react, supervisor, or your own factory."""

from __future__ import annotations

import importlib
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable

from arena.agents.context import AgentContext
from arena.errors import InputError


def build_agent(ctx: AgentContext) -> Runnable[Any, Any]:
    """The runnable for this variant; it takes ``{"messages": [HumanMessage(...)]}``."""
    agent = ctx.variant.agent
    if agent == "react":
        from arena.agents.research.react import build_react_agent

        return build_react_agent(ctx.model, ctx.tools, ctx.system_prompt, ctx.max_steps)
    if agent == "supervisor":
        from arena.agents.research.supervisor import build_supervisor_agent

        return build_supervisor_agent(ctx.model, ctx.tools, ctx.max_steps,
                                      ctx.variant.max_iterations)
    return _import_factory(agent)(ctx)


def check_agent(agent: str) -> None:
    """Fail fast (InputError) when a bring-your-own factory cannot be imported."""
    if agent not in ("react", "supervisor"):
        _import_factory(agent)


def _import_factory(path: str) -> Any:
    module_name, _, attr = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise InputError(f"cannot import {module_name}: {exc}", field="agent") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise InputError(f"{path} is not a callable factory", field="agent")
    return factory


def extract_output(result: Any) -> str:
    """The final answer of an agent run, whatever shape the agent returned."""
    if isinstance(result, str):
        return result
    if isinstance(result, BaseMessage):
        return str(result.content)
    if isinstance(result, dict):
        if result.get("final_report"):
            return str(result["final_report"])
        messages = result.get("messages") or []
        for message in reversed(messages):
            if isinstance(message, AIMessage) and not message.tool_calls:
                return str(message.content)
        if "output" in result:
            return str(result["output"])
    return ""

"""Turn a variant into a runnable agent: react, supervisor, or your own factory."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import Runnable

from arena.agents._architectures import AGENTS
from arena.agents._context import AgentContext
from arena.errors import InputError
from arena.factories._factories import call_factory, import_factory, vet_variant

if TYPE_CHECKING:
    from arena.variants.variant import Variant


def build_agent(ctx: AgentContext) -> Runnable[Any, Any]:
    """The runnable for this variant; it takes ``{"messages": [HumanMessage(...)]}``.

    ``agent`` names a registered architecture (:data:`~arena.agents._architectures.AGENTS`:
    ``react``, ``supervisor`` or a plugin's) or an import path ``package.module:factory``.
    """
    agent = ctx.variant.agent
    if ":" not in agent:
        factory = AGENTS.lookup(agent)
        built: Runnable[Any, Any] = factory(ctx)
        return built
    return call_factory(agent, ctx, file=ctx.variant.source_file)


def check_agent(agent: str | Variant, *, file: str | None = None) -> None:
    """Fail fast (InputError naming the variant file and the field) when a bring-your-own
    factory cannot be imported or is not a factory, or (given the Variant) when its ``tools:``
    or ``params:`` do not match what the factory declares (see arena.factories._factories).

    ``agent`` is the variant's ``agent`` value, or the Variant itself (its file is then known).
    """
    if not isinstance(agent, str):
        if ":" in agent.agent:
            vet_variant(agent)
            return
        file = file or agent.source_file
        agent = agent.agent
    if ":" in agent:
        import_factory(agent, file=file)
    elif agent not in AGENTS:
        raise InputError(
            f"unknown agent architecture {agent!r}; known: {', '.join(AGENTS.names())}",
            file=file,
            field="agent",
        )


def graph_tool_names(agent: Any) -> set[str] | None:
    """The names of the tools in a LangGraph graph's tool nodes (``ToolNode``), those of
    compiled sub-graphs added as nodes included; None when the agent has no tool node."""
    tools = graph_tools(agent)
    return None if tools is None else set(tools)


def graph_tools(agent: Any) -> dict[str, Any] | None:
    """The tools in a LangGraph graph's tool nodes by name (see :func:`graph_tool_names`);
    None when the agent has no tool node."""
    from langgraph.prebuilt import ToolNode

    found: dict[str, Any] | None = None
    graphs, seen = [agent], set()
    while graphs:
        graph = graphs.pop()
        nodes = getattr(graph, "nodes", None)
        if id(graph) in seen or not isinstance(nodes, dict):
            continue
        seen.add(id(graph))
        for node in nodes.values():
            bound = getattr(node, "bound", node)
            if isinstance(bound, ToolNode):
                found = {**(found or {}), **bound.tools_by_name}
            else:
                graphs.append(bound)
    return found


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

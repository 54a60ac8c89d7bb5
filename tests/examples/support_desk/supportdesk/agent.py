"""A team's support-desk agent as a LangGraph graph with routes (issue 40): a ``router`` node
asks the model where a message goes; ``support`` is a compiled sub-graph (a model node and a
``ToolNode`` in a loop) followed by an ``audit`` node; ``decline`` answers what the desk does
not handle. Route checks test which way a run went."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableLambda
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from arena.agents import AgentContext, agent_factory

ROUTER_PROMPT = "You are the router of a support desk: answer support or decline."


def lookup_order(order_id: str) -> str:
    """The status of the order with this id (such as 4471)."""
    return f"order {order_id}: shipped, arrives tomorrow"


class DeskState(MessagesState):
    """The conversation and the router's decision."""

    route: str


def _support(ctx: AgentContext) -> Any:
    """The compiled sub-graph: model -> tools -> model until the model answers."""
    system = SystemMessage(ctx.system_prompt)
    model = ctx.model.bind_tools(ctx.tools)

    async def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await model.ainvoke([system, *state["messages"]])]}

    def more(state: MessagesState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(ctx.tools, handle_tool_errors=True))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", more, ["tools", END])
    graph.add_edge("tools", "agent")
    return graph.compile()


@agent_factory(tools=[lookup_order])
def build(ctx: AgentContext) -> Any:
    """router -> support -> audit, or router -> decline."""

    async def router(state: DeskState) -> dict[str, Any]:
        asked = [m for m in state["messages"] if isinstance(m, HumanMessage)][-1]
        said = await ctx.model.ainvoke([SystemMessage(ROUTER_PROMPT), asked])
        return {"route": "decline" if "decline" in str(said.content).lower() else "support"}

    def decline(state: DeskState) -> dict[str, Any]:
        return {"messages": [AIMessage("Sorry, this desk only helps with orders.")]}

    def audit(state: DeskState) -> dict[str, Any]:
        return {}

    graph = StateGraph(DeskState)
    graph.add_node("router", router)
    graph.add_node("support", _support(ctx))
    graph.add_node("decline", decline)
    graph.add_node("audit", audit)
    graph.add_edge(START, "router")
    graph.add_conditional_edges("router", lambda state: state["route"], ["support", "decline"])
    graph.add_edge("support", "audit")
    graph.add_edge("audit", END)
    graph.add_edge("decline", END)
    return graph.compile()


@agent_factory(tools=[lookup_order])
def build_plain(ctx: AgentContext) -> Any:
    """The same desk as one plain Runnable (no graph): its runs have no node path."""

    async def answer(state: dict[str, Any]) -> dict[str, Any]:
        reply = await ctx.model.ainvoke([SystemMessage(ctx.system_prompt), *state["messages"]])
        return {"messages": [*state["messages"], reply]}

    return RunnableLambda(answer)

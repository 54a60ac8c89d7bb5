"""A team's own agent for the gate report's tests (``agent: tests.gate.crashing_agent:build``):
a model -> tools loop whose tool raises on an order id it does not know, with tool errors not
handled, so the exception ends the run deep inside LangGraph's frames (a crash)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from arena.agents import AgentContext, agent_factory

ORDERS = {"A-1": "shipped"}


def _check_order_id(order_id: str) -> str:
    if order_id not in ORDERS:
        raise ValueError(f"unknown order id {order_id!r} | not in the orders table")
    return order_id


def lookup_order(order_id: str) -> str:
    """The shipping status of an order."""
    return ORDERS[_check_order_id(order_id)]


@agent_factory(tools=[lookup_order])
def build(ctx: AgentContext) -> Any:
    """Model -> tools -> model ... until the model answers; tool errors propagate."""
    bound = ctx.model.bind_tools(ctx.tools)

    async def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await bound.ainvoke(state["messages"])]}

    def route(state: MessagesState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(ctx.tools, handle_tool_errors=False))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", route, ["tools", END])
    graph.add_edge("tools", "agent")
    return graph.compile()

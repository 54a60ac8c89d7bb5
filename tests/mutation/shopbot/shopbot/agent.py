"""The shop team's agent from a new user's trial (issue 39): router -> a compiled ``shop``
sub-graph (agent <-> ToolNode) -> audit, or router -> decline."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from arena.agents import AgentContext, agent_factory

from .tools import check_stock, get_price, track_order

SHOP_WORDS = ("stock", "price", "cost", "order", "mug", "kettle", "teapot")


@agent_factory(tools=[check_stock, get_price, track_order])
def build(ctx: AgentContext) -> Any:
    """router -> shop (agent <-> tools sub-graph) -> audit, or router -> decline."""
    system = SystemMessage(ctx.system_prompt)
    bound = ctx.model.bind_tools(ctx.tools)

    async def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await bound.ainvoke([system, *state["messages"]])]}

    def more(state: MessagesState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    sub = StateGraph(MessagesState)
    sub.add_node("agent", agent)
    sub.add_node("tools", ToolNode(ctx.tools, handle_tool_errors=True))
    sub.add_edge(START, "agent")
    sub.add_conditional_edges("agent", more, ["tools", END])
    sub.add_edge("tools", "agent")
    shop = sub.compile()

    def router(state: MessagesState) -> dict[str, Any]:
        return {}

    def pick(state: MessagesState) -> str:
        text = next(m.content for m in reversed(state["messages"]) if isinstance(m, HumanMessage))
        return "shop" if any(w in str(text).lower() for w in SHOP_WORDS) else "decline"

    def decline(state: MessagesState) -> dict[str, Any]:
        return {
            "messages": [
                AIMessage("Sorry, I can only help with our shop: stock, prices and orders.")
            ]
        }

    def audit(state: MessagesState) -> dict[str, Any]:
        return {}

    graph = StateGraph(MessagesState)
    graph.add_node("router", router)
    graph.add_node("shop", shop)
    graph.add_node("decline", decline)
    graph.add_node("audit", audit)
    graph.add_edge(START, "router")
    graph.add_conditional_edges("router", pick, ["shop", "decline"])
    graph.add_edge("shop", "audit")
    graph.add_edge("audit", END)
    graph.add_edge("decline", END)
    return graph.compile()

"""A customer-support agent of a team's own, for tests/runner/test_tool_accounting.py
(``agent: tests.agents.support_agents:NAME``): a router node in front of a compiled sub-graph
around a ``ToolNode``, or a hand-written tool executor calling ``tool.invoke(args)``; three
tools that raise on bad input."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from arena.agents import AgentContext, agent_factory


def search_faq(query: str) -> str:
    """Search the help-centre FAQ."""
    if not query.strip():
        raise ValueError("empty query")
    return f"FAQ: refunds take 5 working days ({query})"


def order_status(order_id: str) -> str:
    """The shipping status of an order, by its id (ORD-123)."""
    if not order_id.startswith("ORD-"):
        raise ValueError(f"not an order id: {order_id!r}")
    return f"{order_id}: shipped"


def refund(order_id: str, amount: float) -> str:
    """Refund an amount of an order."""
    if amount <= 0:
        raise ValueError("the amount must be positive")
    return f"refunded {amount:g} on {order_id}"


TOOLS = [search_faq, order_status, refund]


def _route(state: MessagesState) -> str:
    last = state["messages"][-1]
    return "tools" if isinstance(last, AIMessage) and last.tool_calls else END


def _loop(ctx: AgentContext, executor: Any) -> Any:
    """Model -> executor -> model ... as a compiled graph."""
    bound = ctx.model.bind_tools(ctx.tools)

    async def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await bound.ainvoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", executor)
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", _route, ["tools", END])
    graph.add_edge("tools", "agent")
    return graph.compile()


def _with_router(inner: Any) -> Any:
    """A router node in front of the compiled sub-graph (it sends everything to support)."""

    def router(state: MessagesState) -> dict[str, Any]:
        return {}

    graph = StateGraph(MessagesState)
    graph.add_node("router", router)
    graph.add_node("support", inner)
    graph.add_edge(START, "router")
    graph.add_edge("router", "support")
    graph.add_edge("support", END)
    return graph.compile()


@agent_factory(tools=TOOLS)
def with_tool_node(ctx: AgentContext) -> Any:
    """Router, then a sub-graph whose tools run in a ToolNode (tool_call_id passed)."""
    return _with_router(_loop(ctx, ToolNode(ctx.tools, handle_tool_errors=True)))


@agent_factory(tools=TOOLS)
def hand_written(ctx: AgentContext) -> Any:
    """Router, then a sub-graph whose tools run in a hand-written executor that calls
    ``tool.invoke(args)`` (no tool_call_id) and answers errors itself."""
    by_name = {t.name: t for t in ctx.tools}

    def execute(state: MessagesState) -> dict[str, Any]:
        replies = []
        last = state["messages"][-1]
        assert isinstance(last, AIMessage)
        for call in last.tool_calls:
            tool = by_name.get(call["name"])
            try:
                if tool is None:
                    raise KeyError(f"{call['name']} is not a valid tool")
                content = str(tool.invoke(call["args"]))
            except Exception as exc:
                content = f"Error: {exc}"
            replies.append(ToolMessage(content, tool_call_id=str(call["id"]), name=call["name"]))
        return {"messages": replies}

    return _with_router(_loop(ctx, execute))


@agent_factory(tools=TOOLS, side_effecting=["refund"])
def declares_refund(ctx: AgentContext) -> Any:
    """``with_tool_node`` whose factory declares ``refund`` side-effecting."""
    return _with_router(_loop(ctx, ToolNode(ctx.tools, handle_tool_errors=True)))


def _marked_refund() -> Any:
    from langchain_core.tools import StructuredTool

    return StructuredTool.from_function(refund, metadata={"side_effecting": True})


@agent_factory()
def marks_refund(ctx: AgentContext) -> Any:
    """Declares no tools: its graph's ToolNode holds a ``refund`` whose metadata says it is
    side-effecting."""
    tools = [order_status, _marked_refund()]
    ctx = AgentContext(
        variant=ctx.variant, model=ctx.model, tools=tools, sandbox_dir=ctx.sandbox_dir
    )
    return _with_router(_loop(ctx, ToolNode(tools, handle_tool_errors=True)))

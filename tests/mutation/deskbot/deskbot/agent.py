"""The desk agent: model -> tools -> model until it answers, then the answer with the tools'
results as its details (a ticket number the user can quote)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, SystemMessage, ToolMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from arena.agents import AgentContext, agent_factory

USERS = {"ada@example.com": "user u-42: Ada Lovelace, plan pro"}


def lookup_user(email: str) -> str:
    """Find the user account of an email address."""
    return USERS.get(email.lower(), f"no user with the email {email}")


def open_ticket(user_id: str, summary: str) -> str:
    """Open a support ticket for a user (such as u-42) and return its number."""
    return f"ticket T-1001 opened for {user_id}: {summary}"


def check_status(service: str) -> str:
    """The current status of a service (mail, vpn, wiki)."""
    return f"{service}: operational, 99.9% this month"


@agent_factory(tools=[lookup_user, open_ticket, check_status])
def build(ctx: AgentContext) -> Any:
    """The desk agent on the variant's model and tools."""
    system = SystemMessage(ctx.system_prompt)
    model = ctx.model.bind_tools(ctx.tools) if ctx.tools else ctx.model

    async def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await model.ainvoke([system, *state["messages"]])]}

    def route(state: MessagesState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else "answer"

    def answer(state: MessagesState) -> dict[str, Any]:
        found = [str(m.content) for m in state["messages"] if isinstance(m, ToolMessage)]
        text = str(state["messages"][-1].content)
        details = "\n".join(f"- {line}" for line in found)
        return {"messages": [AIMessage(f"{text}\n\nDetails:\n{details}" if found else text)]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(ctx.tools, handle_tool_errors=True))
    graph.add_node("answer", answer)
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", route, ["tools", "answer"])
    graph.add_edge("tools", "agent")
    graph.add_edge("answer", END)
    return graph.compile()

"""A team's tiny IT-helpdesk agent, for the tests of required actions (issue 36): a hand-written
LangGraph loop whose ``ToolNode`` turns a tool's exception into an error message, and a
``reset_password`` that raises ``KeyError`` on every call (the directory lost every user)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, SystemMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from arena.agents import AgentContext, agent_factory


def reset_password(user_id: str) -> str:
    """Reset the password of the user with this id (such as u-42) and return the new one."""
    users: dict[str, str] = {}
    return f"new password of {user_id}: {users[user_id]}"  # KeyError: the directory is empty


@agent_factory(tools=[reset_password])
def build(ctx: AgentContext) -> Any:
    """Model -> tools -> model until the model answers."""
    system = SystemMessage(ctx.system_prompt)
    model = ctx.model.bind_tools(ctx.tools) if ctx.tools else ctx.model

    async def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await model.ainvoke([system, *state["messages"]])]}

    def route(state: MessagesState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(ctx.tools, handle_tool_errors=True))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", route, ["tools", END])
    graph.add_edge("tools", "agent")
    return graph.compile()

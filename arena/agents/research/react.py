"""A single tool-calling ReAct agent on LangGraph, with a tool-call budget."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Annotated, Any, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, SystemMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import ToolNode

BUDGET_NOTE = "Tool budget used up: answer now from what you have, without calling tools."


class ReactState(TypedDict, total=False):
    """Conversation so far and how many tool calls were made."""

    messages: Annotated[list[AnyMessage], add_messages]
    tool_calls: Annotated[int, operator.add]


def build_react_agent(
    model: BaseChatModel, tools: Sequence[BaseTool], system_prompt: str, max_steps: int
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Model -> tools -> model ... until the model answers or ``max_steps`` tool calls ran.

    Once the budget is spent the model is asked once more without tools for a final answer.
    """
    bound = model.bind_tools(list(tools)) if tools else model
    tool_node = ToolNode(list(tools), handle_tool_errors=True) if tools else None

    async def agent(state: ReactState, config: RunnableConfig) -> dict[str, Any]:
        history: list[BaseMessage] = list(state.get("messages", []))
        prefix: list[BaseMessage] = [SystemMessage(system_prompt)] if system_prompt else []
        if state.get("tool_calls", 0) >= max_steps or tool_node is None:
            note: list[BaseMessage] = [SystemMessage(BUDGET_NOTE)] if tool_node else []
            reply = await model.ainvoke(prefix + history + note, config)
        else:
            reply = await bound.ainvoke(prefix + history, config)
        return {"messages": [reply]}

    async def act(state: ReactState, config: RunnableConfig) -> dict[str, Any]:
        assert tool_node is not None
        last = state["messages"][-1]
        calls = len(last.tool_calls) if isinstance(last, AIMessage) else 0
        result = await tool_node.ainvoke(state, config)
        return {"messages": result["messages"], "tool_calls": calls}

    def route(state: ReactState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    graph = StateGraph(ReactState)
    graph.add_node("agent", agent)
    graph.add_edge(START, "agent")
    if tool_node is not None:
        graph.add_node("tools", act)
        graph.add_conditional_edges("agent", route, {"tools": "tools", END: END})
        graph.add_edge("tools", "agent")
    else:
        graph.add_edge("agent", END)
    return graph.compile()

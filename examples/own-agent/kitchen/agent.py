"""The kitchen helper's agent factory: a hand-built LangGraph tool loop over its own tools."""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.messages import AIMessage, SystemMessage, ToolMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from pydantic import BaseModel, ConfigDict, Field

from arena.agents import AgentContext, agent_factory
from kitchen.tools import convert_units, oven_temperature, scale_recipe


class KitchenParams(BaseModel):
    """What a variant's ``params:`` may set."""

    model_config = ConfigDict(extra="forbid")

    units: Literal["metric", "us"] = "metric"
    decimals: int = Field(1, ge=0, le=3)


@agent_factory(tools=[convert_units, scale_recipe, oven_temperature], params=KitchenParams)
def build(ctx: AgentContext) -> Any:
    """Model -> tools -> model ... until the model answers or the tool budget is spent."""
    params: KitchenParams = ctx.params
    system = SystemMessage(
        f"{ctx.system_prompt}\nPrefer {params.units} units; round to {params.decimals} decimal(s)."
    )
    bound = ctx.model.bind_tools(ctx.tools) if ctx.tools else ctx.model

    async def agent(state: MessagesState) -> dict[str, Any]:
        used = sum(isinstance(m, ToolMessage) for m in state["messages"])
        model = bound if used < ctx.max_steps else ctx.model
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

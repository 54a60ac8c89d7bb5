"""Bring-your-own factories with tools of their own, for tests/agents/test_own_tools.py
(``agent: tests.agents.own_agents:NAME``)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from pydantic import BaseModel, ConfigDict

from arena.agents import AgentContext, agent_factory


def convert_currency(amount: float, currency: str) -> str:
    """Convert an amount of euros into another currency."""
    return f"{amount * 1.1:.2f} {currency}"


def distance_km(origin: str, destination: str) -> str:
    """The road distance between two cities, in kilometres."""
    return f"{len(origin) * len(destination) * 10} km from {origin} to {destination}"


def _graph(ctx: AgentContext, tools: list[Any]) -> Any:
    bound = ctx.model.bind_tools(tools)

    async def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await bound.ainvoke(state["messages"])]}

    def route(state: MessagesState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else END

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools, handle_tool_errors=True))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", route, ["tools", END])
    graph.add_edge("tools", "agent")
    return graph.compile()


def trip_react(ctx: AgentContext) -> Any:
    """What a new user writes: create_react_agent over tools of its own, nothing declared."""
    import warnings

    from langchain_core.tools import tool
    from langgraph.prebuilt import create_react_agent

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # create_react_agent moved in LangGraph 1.0
        return create_react_agent(ctx.model, [tool(convert_currency), tool(distance_km)])


class TripParams(BaseModel):
    """What a trip variant's ``params:`` may set."""

    model_config = ConfigDict(extra="forbid")

    currency: str = "USD"
    budget: int = 100


@agent_factory(tools=[convert_currency, distance_km], params=TripParams)
def trip_declared(ctx: AgentContext) -> Any:
    """Declares its tools and params: builds its graph on ``ctx.tools``."""
    return _graph(ctx, ctx.tools)


@agent_factory(tools=[convert_currency, distance_km], params=TripParams)
def trip_params_echo(ctx: AgentContext) -> Any:
    """Answers with the params and tool names it was given."""
    params: TripParams = ctx.params
    names = ",".join(t.name for t in ctx.tools)
    answer = f"currency={params.currency} budget={params.budget} tools={names}"

    async def run(state: dict[str, Any]) -> dict[str, Any]:
        return {"messages": [*state["messages"], AIMessage(answer)]}

    return RunnableLambda(run)


@agent_factory(tools=[convert_currency], roles=["router"])
def trip_routed(ctx: AgentContext) -> Any:
    """Answers with what the model of its ``router`` role says."""

    async def run(state: dict[str, Any]) -> dict[str, Any]:
        reply = await ctx.model_for("router").ainvoke(state["messages"])
        return {"messages": [*state["messages"], AIMessage(f"router: {reply.content}")]}

    return RunnableLambda(run)


@agent_factory(tools=[convert_currency])
def fails_on_paris(ctx: AgentContext) -> Any:
    """Raises inside the agent for a question about Paris (a bug in the user's code)."""

    async def run(state: dict[str, Any]) -> dict[str, Any]:
        question = str(state["messages"][-1].content)
        if "Paris" in question:
            _lookup_city({}, "Paris")
        return {"messages": [*state["messages"], AIMessage(f"fine: {question}")]}

    return RunnableLambda(run)


def _lookup_city(cities: dict[str, str], name: str) -> str:
    return cities[name]

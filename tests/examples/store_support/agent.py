"""A team's store-support agent (issue 45): a LangGraph loop (model -> tools -> model) over a
small store it makes fresh for each case (tests/examples/store_support/store.py). Two tools
read (``find_user``, ``get_order``); five change records (``cancel_order``, ``modify_items``,
``change_address``, ``exchange_items``, ``return_items``) and are declared side-effecting. The
store is exposed to arena with ``ctx.expose_state``, so a case's ``expected_state`` is checked
against the records as the run left them."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, SystemMessage
from langchain_core.tools import BaseTool, tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from arena.agents import AgentContext, agent_factory
from tests.examples.store_support.store import SIDE_EFFECTING, Store


def store_tools(store: Store) -> list[BaseTool]:
    """The seven tools, each working on ``store``."""

    def find_user(email: str) -> str:
        """Find the customer with this email: their user id and their order ids."""
        return store.find_user(email)

    def get_order(order_id: str) -> str:
        """The order with this id (such as #W101): items, status, address, history."""
        return store.get_order(order_id)

    def cancel_order(order_id: str, reason: str) -> str:
        """Cancel a pending order; reason: 'no longer needed' or 'ordered by mistake'."""
        return store.cancel_order(order_id, reason)

    def modify_items(order_id: str, item_ids: list[str], new_item_ids: list[str]) -> str:
        """Replace items of a pending order, one for one (only once per order)."""
        return store.modify_items(order_id, item_ids, new_item_ids)

    def change_address(order_id: str, address1: str, city: str, zip: str) -> str:
        """Change the shipping address of a pending order (not after its items changed)."""
        return store.change_address(order_id, address1, city, zip)

    def exchange_items(order_id: str, item_ids: list[str], new_item_ids: list[str]) -> str:
        """Request an exchange of items of a delivered order, one for one."""
        return store.exchange_items(order_id, item_ids, new_item_ids)

    def return_items(order_id: str, item_ids: list[str]) -> str:
        """Request the return of items of a delivered order."""
        return store.return_items(order_id, item_ids)

    functions = [
        find_user,
        get_order,
        cancel_order,
        modify_items,
        change_address,
        exchange_items,
        return_items,
    ]
    return [tool(f) for f in functions]


def loop(ctx: AgentContext, tools: list[BaseTool]) -> Any:
    """The agent: model -> tools -> model until the model answers."""
    system = SystemMessage(ctx.system_prompt)
    model = ctx.model.bind_tools(tools)

    async def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await model.ainvoke([system, *state["messages"]])]}

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


@agent_factory(tools=store_tools(Store()), side_effecting=list(SIDE_EFFECTING))
def build(ctx: AgentContext) -> Any:
    """A fresh store, its tools (those the variant selects), the store exposed to arena."""
    store = Store()
    ctx.expose_state(store.snapshot)
    chosen = {t.name for t in ctx.tools}
    return loop(ctx, [t for t in store_tools(store) if t.name in chosen])

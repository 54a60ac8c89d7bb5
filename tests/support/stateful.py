"""An order desk whose agent changes records and exposes them (``ctx.expose_state``), for
the end-state tests: no model, each message says what to do.

A message's words ``cancel #W1``, ``remove #W2``, ``add #W9`` and ``zip #W1 60621-1234`` act
on the desk's orders; the reply lists what was done (``done: cancel #W1``). The desk is built
anew by each call of the factory, so every task starts from the same orders.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda

from arena.agents import AgentContext

ORDERS: dict[str, dict[str, Any]] = {
    "#W1": {"status": "pending", "zip": "60621", "items": ["lamp"]},
    "#W2": {"status": "pending", "zip": "10001", "items": ["desk", "chair"]},
    "#W3": {"status": "delivered", "zip": "94110", "items": ["mug"]},
}
_ACTION = re.compile(r"\b(cancel|remove|add|zip|note) (#W\d+)(?: (\S+))?")


def _act(orders: dict[str, dict[str, Any]], text: str) -> list[str]:
    done = []
    for verb, order, value in _ACTION.findall(text):
        if verb == "cancel" and order in orders:
            orders[order]["status"] = "cancelled"  # in place: the arena must have copied
        elif verb == "remove":
            orders.pop(order, None)
        elif verb == "add":
            orders[order] = {"status": "pending", "zip": "00000", "items": []}
        elif verb == "zip" and order in orders:
            orders[order]["zip"] = value
        elif verb == "note" and order in orders:
            orders[order]["note"] = value
        done.append(f"{verb} {order}")
    return done


def _desk(ctx: AgentContext, also: str = "") -> Any:
    orders = {key: {**record, "items": list(record["items"])} for key, record in ORDERS.items()}
    ctx.expose_state(lambda: {"orders": orders})

    def run(state: dict[str, Any]) -> dict[str, Any]:
        text = str(state["messages"][-1].content)
        done = _act(orders, text)
        if done and also:
            _act(orders, also)  # unsaid
        reply = f"done: {', '.join(done)}" if done else "nothing to do"
        return {"messages": [*state["messages"], AIMessage(reply)]}

    return RunnableLambda(run)


def order_desk(ctx: AgentContext) -> Any:
    """The desk's agent: acts on each human message, exposes its orders."""
    return _desk(ctx)


def eager_desk(ctx: AgentContext) -> Any:
    """The desk's replies, but whenever it acts it also cancels #W2 (and does not say so)."""
    return _desk(ctx, also="cancel #W2")


def stateless_desk(ctx: AgentContext) -> Any:
    """The same replies, no state exposed."""
    return RunnableLambda(
        lambda state: {"messages": [*state["messages"], AIMessage("done: cancel #W1")]}
    )


def broken_desk(ctx: AgentContext) -> Any:
    """Exposes a snapshot that fails."""

    def snapshot() -> dict[str, Any]:
        raise RuntimeError("the store is down")

    ctx.expose_state(snapshot)
    return RunnableLambda(lambda state: {"messages": [*state["messages"], AIMessage("ok")]})

"""The store of the store-support example: users and their orders (items, status, shipping
address, a history of changes), made fresh for each case. Every write checks first and then
changes the records, so a refused write changes nothing; each successful write adds a line to
the order's ``history`` (as a real store's audit trail would), so a write made twice shows in
the end state."""

from __future__ import annotations

import copy
import json
from typing import Any

Records = dict[str, dict[str, dict[str, Any]]]

CATALOG: dict[str, float] = {
    "mug-blue": 12.0,
    "mug-red": 12.0,
    "tee-m": 25.0,
    "tee-l": 25.0,
    "cap": 18.0,
    "socks": 9.0,
    "lamp": 3541.0,
    "kettle": 49.0,
    "toaster": 39.0,
    "toaster-xl": 55.0,
}
REASONS = ("no longer needed", "ordered by mistake")
HOME = {"address1": "8 Oak Ave", "city": "Chicago", "zip": "60614"}


def _order(user: str, status: str, items: list[str]) -> dict[str, Any]:
    return {"user_id": user, "status": status, "items": sorted(items), **HOME, "history": []}


SEED: Records = {
    "users": {
        "ava_kim": {"name": "Ava Kim", "email": "ava@example.com"},
        "ben_ortiz": {"name": "Ben Ortiz", "email": "ben@example.com"},
    },
    "orders": {
        "#W101": _order("ava_kim", "pending", ["mug-blue", "tee-m"]),
        "#W102": _order("ava_kim", "pending", ["lamp"]),
        "#W103": _order("ava_kim", "delivered", ["cap", "mug-blue", "socks"]),
        "#W104": _order("ava_kim", "pending", ["kettle"]),
        "#W201": _order("ben_ortiz", "pending", ["kettle"]),
        "#W2010": _order("ben_ortiz", "pending", ["toaster"]),
        "#W202": _order("ben_ortiz", "delivered", ["cap", "tee-m"]),
    },
}

READ_ONLY = ("find_user", "get_order")
SIDE_EFFECTING = (
    "cancel_order",
    "modify_items",
    "change_address",
    "exchange_items",
    "return_items",
)


class StoreError(ValueError):
    """A write or lookup the store refuses (nothing changed)."""


class Store:
    """A fresh copy of the seed records and the tools' operations on it."""

    def __init__(self) -> None:
        self.records: Records = copy.deepcopy(SEED)

    def snapshot(self) -> Records:
        """Every record now (a copy): ``{collection: {record_id: {field: value}}}``."""
        return copy.deepcopy(self.records)

    def call(self, tool: str, args: dict[str, Any]) -> str:
        """Run the operation ``tool`` with ``args`` (StoreError when refused)."""
        if tool not in READ_ONLY + SIDE_EFFECTING:
            raise StoreError(f"no tool {tool}")
        result: str = getattr(self, tool)(**args)
        return result

    def _get(self, order_id: str, *statuses: str) -> dict[str, Any]:
        order = self.records["orders"].get(order_id)
        if order is None:
            raise StoreError(f"no order {order_id}")
        if statuses and order["status"] not in statuses:
            raise StoreError(f"order {order_id} is {order['status']}, not {' or '.join(statuses)}")
        return order

    def _items(self, order: dict[str, Any], item_ids: list[str], new: list[str] | None) -> None:
        missing = [i for i in item_ids if i not in order["items"]]
        if missing or len(set(item_ids)) < len(item_ids) or not item_ids:
            raise StoreError(f"items {item_ids} are not distinct items of the order")
        if new is not None and (len(new) != len(item_ids) or set(new) - set(CATALOG)):
            raise StoreError(f"new items {new} do not replace {item_ids} one for one")

    def find_user(self, email: str) -> str:
        for user_id, user in self.records["users"].items():
            if user["email"] == email:
                orders = [o for o, r in self.records["orders"].items() if r["user_id"] == user_id]
                return f"user {user_id} ({user['name']}), orders: {', '.join(orders)}"
        raise StoreError(f"no user with email {email}")

    def get_order(self, order_id: str) -> str:
        return json.dumps(self._get(order_id), sort_keys=True)

    def cancel_order(self, order_id: str, reason: str) -> str:
        order = self._get(order_id, "pending")
        if reason not in REASONS:
            raise StoreError(f"reason must be one of {REASONS}")
        order.update(status="cancelled", cancel_reason=reason)
        order["history"].append("cancelled")
        return f"order {order_id} cancelled"

    def modify_items(self, order_id: str, item_ids: list[str], new_item_ids: list[str]) -> str:
        order = self._get(order_id, "pending")
        self._items(order, item_ids, new_item_ids)
        kept = [i for i in order["items"] if i not in item_ids]
        order.update(items=sorted(kept + new_item_ids), status="pending (items modified)")
        order["history"].append("items modified")
        return f"order {order_id} now has {', '.join(order['items'])}"

    def change_address(self, order_id: str, address1: str, city: str, zip: str) -> str:
        order = self._get(order_id, "pending")
        order.update(address1=address1, city=city, zip=zip)
        order["history"].append("address changed")
        return f"order {order_id} ships to {address1}, {city} {zip}"

    def exchange_items(self, order_id: str, item_ids: list[str], new_item_ids: list[str]) -> str:
        order = self._get(order_id, "delivered")
        self._items(order, item_ids, new_item_ids)
        order.update(
            status="exchange requested",
            exchange_items=sorted(item_ids),
            exchange_new_items=sorted(new_item_ids),
        )
        order["history"].append("exchange requested")
        return f"exchange of {', '.join(item_ids)} on {order_id} requested"

    def return_items(self, order_id: str, item_ids: list[str]) -> str:
        order = self._get(order_id, "delivered")
        self._items(order, item_ids, None)
        order.update(status="return requested", return_items=sorted(item_ids))
        order["history"].append("return requested")
        return f"return of {', '.join(item_ids)} on {order_id} requested"

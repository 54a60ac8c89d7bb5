"""The shop's tools: stock, prices and orders."""

STOCK = {"blue mug": 12, "red kettle": 3, "green teapot": 0}
PRICES = {"blue mug": 9.50, "red kettle": 34.00, "green teapot": 21.25}
ORDERS = {"4471": "shipped on 2026-12-01, arriving Friday", "5020": "being packed"}


def check_stock(item: str) -> str:
    """How many units of a shop item are in stock."""
    item = item.lower().strip()
    if item not in STOCK:
        raise ValueError(f"unknown item: {item}")
    return f"{item}: {STOCK[item]} in stock"


def get_price(item: str) -> str:
    """The price of a shop item in euros."""
    item = item.lower().strip()
    if item not in PRICES:
        raise ValueError(f"unknown item: {item}")
    return f"{item}: EUR {PRICES[item]:.2f}"


def track_order(order_id: str) -> str:
    """Where an order is."""
    return f"order {order_id}: {ORDERS.get(order_id, 'not found')}"

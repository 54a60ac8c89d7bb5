"""A team's own project folder for version tests: a factory package, a shared package it
imports, an unrelated package, and a variant file naming the factory."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

from arena.variants.variant import Variant, load_variant

AGENT = """
from langchain_core.messages import AIMessage
from langgraph.graph import END, START, MessagesState, StateGraph

from arena.agents import agent_factory
from {common}.faq import ANSWER
from {pkg}.tools import lookup_order


@agent_factory(tools=[lookup_order])
def build(ctx):
    async def reply(state: MessagesState):
        return {{"messages": [AIMessage(content=ANSWER + " REPLY")]}}

    graph = StateGraph(MessagesState)
    graph.add_node("reply", reply)
    graph.add_edge(START, "reply")
    graph.add_edge("reply", END)
    return graph.compile()
"""
TOOLS = '''
def lookup_order(order_id: str) -> str:
    """Look up an order by its id."""
    return "order " + order_id + " shipped"
'''


class Project:
    """The project; package names are unique per instance (modules stay imported)."""

    def __init__(self, root: Path) -> None:
        tag = uuid.uuid4().hex[:8]
        self.root, self.pkg, self.common = root, f"shopbot_{tag}", f"common_{tag}"
        root.mkdir(parents=True)
        (root / "arena.yaml").write_text("run: {tier: all}\n")
        self.write(f"{self.pkg}/__init__.py", "")
        self.write(f"{self.pkg}/agent.py", AGENT.format(pkg=self.pkg, common=self.common))
        self.write(f"{self.pkg}/tools.py", TOOLS)
        self.write(f"{self.common}/__init__.py", "")
        self.write(f"{self.common}/faq.py", 'ANSWER = "Your order ships in 2 days."\n')
        self.write(f"unrelated_{tag}/__init__.py", "X = 1\n")
        self.unrelated = f"unrelated_{tag}/__init__.py"
        self.variant_file = root / "variants" / "shop.yaml"
        self.write(
            "variants/shop.yaml",
            f"name: shop\nagent: {self.pkg}.agent:build\nmodel: {{spec: 'fake:echo'}}\n",
        )

    def write(self, relative: str, text: str) -> None:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def edit(self, relative: str, old: str, new: str) -> None:
        path = self.root / relative
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new))

    def forget_modules(self) -> None:
        """Drop the project's imported modules, as a new process would not have them."""
        for name in [m for m in sys.modules if m.startswith((self.pkg, self.common))]:
            del sys.modules[name]

    def variant(self) -> Variant:
        return load_variant(self.variant_file)


def shop_project(tmp_path: Path) -> Iterator[Project]:
    """A fixture body: the project, and afterwards ``sys.path`` and ``sys.modules`` restored."""
    before = list(sys.path)
    made = Project(tmp_path / "proj")
    yield made
    sys.path[:] = before
    made.forget_modules()

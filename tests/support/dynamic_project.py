"""A team's project whose factory imports a module only at run time
(``importlib.import_module``), for the tests of run-time loaded files."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

from arena.variants.variant import Variant, load_variant
from tests.support.shop_project import Project

DYNAMIC = """
import importlib

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, MessagesState, StateGraph

from {common}.faq import ANSWER


def build(ctx):
    async def reply(state: MessagesState):
        said = await ctx.model.ainvoke(state["messages"])
        policy = importlib.import_module("policy_" + "{tag}")
        return {{"messages": [AIMessage(content=f"{{said.content}} {{ANSWER}} {{policy.WHEN}}")]}}

    graph = StateGraph(MessagesState)
    graph.add_node("reply", reply)
    graph.add_edge(START, "reply")
    graph.add_edge("reply", END)
    return graph.compile()
"""


class DynamicProject(Project):
    """The shop project plus a factory that imports ``policy_<tag>.py`` only at run time."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        # The agent imports policy_<tag> from the project's root at run time, as a team's
        # agent run from its root does: the root on sys.path whatever the working directory
        # and whatever earlier tests of the process left there (the fixture restores it).
        if str(self.root) not in sys.path:
            sys.path.insert(0, str(self.root))
        self.tag = self.pkg.removeprefix("shopbot_")
        self.policy = f"policy_{self.tag}.py"
        self.write(f"{self.pkg}/dynamic.py", DYNAMIC.format(common=self.common, tag=self.tag))
        self.write(self.policy, 'WHEN = "Refunds take 5 days."\n')
        importlib.invalidate_caches()  # the new files are found by a finder made before
        self.write(
            "variants/dyn.yaml",
            f"name: dyn\nagent: {self.pkg}.dynamic:build\nmodel: {{spec: 'fake:echo'}}\n",
        )

    def dynamic(self) -> Variant:
        return load_variant(self.root / "variants" / "dyn.yaml")

    def plain(self) -> Variant:
        """The project's other agent: it loads nothing at run time."""
        return self.variant()

    def forget_policy(self) -> None:
        """A new process would import the edited policy (``sys.modules`` keeps the old)."""
        sys.modules.pop(self.policy.removesuffix(".py"), None)


def dynamic_project(root: Path) -> Iterator[DynamicProject]:
    """A fixture body: the project, and afterwards ``sys.path`` and ``sys.modules`` restored."""
    from arena.models._fake import _SCRIPTS, _echo, register_fake

    before = list(sys.path)
    scripts = dict(_SCRIPTS)
    # fake:echo as shipped: a test earlier in the process may have registered another script
    # under its name (one that answers 401), and these agents run on it.
    register_fake("echo", [_echo], cycle=True)
    made = DynamicProject(root)
    yield made
    _SCRIPTS.clear()
    _SCRIPTS.update(scripts)
    sys.path[:] = before
    made.forget_modules()
    made.forget_policy()

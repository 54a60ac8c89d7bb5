"""Each variant's agent and tools, built once per run and repeat instead of once per task.

Compiling a LangGraph graph and converting every tool's schema for the model costs
milliseconds, which at dozens of tasks per second was most of the runner's work. The built-in
architectures (``react``, ``supervisor``) are therefore built once per variant and run model
(one per repeat), with tools whose ``write_file`` writes into the sandbox of the task that
calls it (``TASK_SANDBOX``, set by :func:`arena.sandbox.use_sandbox`). Compiled
graphs and tools hold no per-run state, so concurrent tasks share them safely.

A bring-your-own factory is still called for every task with that task's
:class:`~arena.agents.AgentContext` (its own sandbox folder), since it may keep per-task
state; it gets the tools it declares (as the variant's ``tools:`` selects them) and its
``params``. The role models of a variant are shared by all its tasks of a repeat in both cases.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.agents import AgentContext, StateFunction, build_agent, graph_tool_names
from arena.agents._architectures import builtin_tools
from arena.agents._builder import graph_tools
from arena.factories._declare import FactorySpec, declares_side_effects
from arena.models import CachingChatModel, make_chat_model
from arena.runner._options import ToolWrapper
from arena.sandbox import TASK_SANDBOX
from arena.variants.variant import ARCHITECTURES

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.runnables import Runnable
    from langchain_core.tools import BaseTool

    from arena.sandbox import Sandbox
    from arena.variants.variant import Variant


def role_models(variant: Variant, model: CachingChatModel) -> dict[str, BaseChatModel]:
    """Cached models of the variant's ``roles``, sharing the run's cache and repeat."""
    return {
        role: CachingChatModel(
            factory=lambda c=config: make_chat_model(c),
            identity=config.cache_identity(),
            namespace=model.namespace,
            store=model.store,
        )
        for role, config in variant.roles.items()
    }


def enabled_tools(variant: Variant) -> list[str]:
    """The tool names a variant enables (all of them when it does not say)."""
    from arena.defaults import TOOL_NAMES

    return list(variant.tools) if variant.tools is not None else list(TOOL_NAMES)


class AgentCache:
    """Agents, tools and role models of one run, built on first use and then shared.

    Entries are keyed by the variant's version hash and the run model's identity in this
    process (one model per variant and repeat); the cache keeps the model alive with them.
    """

    def __init__(self) -> None:
        self._tools: dict[tuple[str, int], tuple[CachingChatModel, list[BaseTool]]] = {}
        self._agents: dict[tuple[str, int], tuple[CachingChatModel, Runnable[Any, Any]]] = {}
        self._roles: dict[tuple[str, int], tuple[CachingChatModel, dict[str, BaseChatModel]]] = {}
        self._specs: dict[str, tuple[FactorySpec, Any]] = {}

    @staticmethod
    def shared(variant: Variant) -> bool:
        """True when the variant's agent is built once and shared by its tasks."""
        return variant.agent in ARCHITECTURES

    def role_models(self, variant: Variant, model: CachingChatModel) -> dict[str, BaseChatModel]:
        """The variant's role models on ``model``'s cache and repeat, built once."""
        key = (variant.version_hash, id(model))
        if key not in self._roles:
            self._roles[key] = (model, role_models(variant, model))
        return self._roles[key][1]

    def factory(self, variant: Variant) -> tuple[FactorySpec, Any]:
        """What the variant's factory declares, and its validated ``params`` (vetted once)."""
        from arena.factories._factories import factory_params, vet_variant

        if variant.version_hash not in self._specs:
            spec = vet_variant(variant)
            self._specs[variant.version_hash] = (spec, factory_params(variant, spec))
        return self._specs[variant.version_hash]

    def tools(
        self,
        variant: Variant,
        model: CachingChatModel,
        sandbox: Sandbox,
        wrap: ToolWrapper | None = None,
    ) -> list[BaseTool]:
        """The task's tools: shared ones writing into the running task's sandbox for the
        built-in agents; for a factory, the tools it declares (as ``tools:`` selects them),
        else fresh built-in ones bound to ``sandbox``; each list as the run's ``wrap``
        (:attr:`~arena.runner.RunOptions.wrap_tools`) wraps it. One run has one ``wrap``: the
        shared tools are built and wrapped once per variant and model."""
        handed = wrap if wrap is not None else list
        if not self.shared(variant):
            spec, _ = self.factory(variant)
            if spec.tools is not None:
                return handed(spec.select(variant.tools))
            enabled = enabled_tools(variant)
            return handed(builtin_tools(model=model, sandbox=sandbox, enabled=enabled))
        key = (variant.version_hash, id(model))
        if key not in self._tools:
            built = builtin_tools(model=model, sandbox=TASK_SANDBOX, enabled=enabled_tools(variant))
            self._tools[key] = (model, handed(built))
        return self._tools[key][1]

    def agent(
        self, variant: Variant, model: CachingChatModel, tools: list[BaseTool], sandbox: Sandbox
    ) -> Runnable[Any, Any]:
        """The task's agent: built once for the built-in architectures (with the shared
        ``tools``), by the variant's factory for every task otherwise."""
        return self.build(variant, model, tools, sandbox)[0]

    def build(
        self, variant: Variant, model: CachingChatModel, tools: list[BaseTool], sandbox: Sandbox
    ) -> tuple[Runnable[Any, Any], StateFunction | None]:
        """The task's agent (:meth:`agent`) and the state function its factory exposed
        (``ctx.expose_state``; None when it exposed none, and for the built-in agents)."""
        key = (variant.version_hash, id(model))
        if self.shared(variant) and key in self._agents:
            return self._agents[key][1], None
        context = AgentContext(
            variant=variant,
            model=model,
            tools=tools,
            sandbox_dir=sandbox.root,
            role_models=self.role_models(variant, model),
            params=None if self.shared(variant) else self.factory(variant)[1],
        )
        agent = build_agent(context)
        if self.shared(variant):  # the built-ins never read the context's sandbox_dir
            self._agents[key] = (model, agent)
            return agent, None
        return agent, context.state_snapshot

    def tool_names(
        self, variant: Variant, agent: Runnable[Any, Any], tools: list[BaseTool]
    ) -> set[str] | None:
        """The variant's enabled tools, to tell a call to a tool it lacks: the built-in
        agents' selection (``tools``); for a factory that declares tools, those the variant's
        ``tools:`` selects (``tools`` again, whatever its graph holds); for one that declares
        none, its graph's tool nodes; None (nothing is checked) when neither says."""
        if self.shared(variant):
            return {t.name for t in tools}
        spec, _ = self.factory(variant)
        if spec.tools is not None:
            return {t.name for t in tools}
        return graph_tool_names(agent)

    def side_effecting(
        self, variant: Variant, agent: Runnable[Any, Any], tools: list[BaseTool]
    ) -> list[str]:
        """The tools the agent declares side-effecting, sorted: its factory's
        ``side_effecting`` and every tool (given, or in its graph's tool nodes) whose
        ``metadata`` says ``side_effecting: True``."""
        names = {t.name for t in tools if declares_side_effects(t)}
        if not self.shared(variant):
            names |= set(self.factory(variant)[0].side_effecting)
            in_graph = graph_tools(agent) or {}
            names |= {name for name, t in in_graph.items() if declares_side_effects(t)}
        return sorted(names)

"""The agent architectures a variant's ``agent:`` names: their registry, its decorator and the
two built-ins (``react``, ``supervisor``).

An architecture is a factory ``(AgentContext) -> runnable``
(:data:`~arena.agents._context.AgentFactory`). This module is the registry's home and stays
light, importing nothing of the agents (the research agent loads when a factory runs), so
variants validate their ``agent:`` and help texts list the architectures without loading
LangChain.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from arena.registry import Registry, entry_point_group

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.tools import BaseTool

    from arena.sandbox import Sandbox, TaskSandbox

F = TypeVar("F")

AGENTS: Registry[Callable[[Any], Any]] = Registry(
    "agent architecture",
    entry_point_group("agents"),
    homes=(__name__,),
    declared_by="agent_architecture",
)
"""Agent architectures: factories ``(AgentContext) -> runnable``, named by a variant's agent."""


def agent_architecture(
    name: str, summary: str | None = None, *, replace: bool = False, order: int | None = None
) -> Callable[[F], F]:
    """Register a factory ``(AgentContext) -> runnable`` as the variant agent ``name``.

    Args:
        name: what a variant's ``agent:`` names.
        summary: one line for ``arena --help`` (default: the first docstring line).
        replace: replace an architecture already registered as ``name``.
        order: its place in listings: the built-ins (defined under the kind's home) come
            first, by ``order``; then every other entry, those with an ``order`` by it,
            then the rest in registration order.

    Returns:
        A decorator registering the factory and returning it unchanged.

    Raises:
        NameTaken: ``name`` is registered already and ``replace`` is false.
        TypeError: the decorated object is not callable.
    """
    return AGENTS.decorator(name, summary, replace=replace, order=order)


@agent_architecture("react", "one ReAct loop over the research tools", order=10)
def build_react(ctx: Any) -> Any:
    """The ``react`` architecture: one ReAct loop over the research tools (``ctx``: the
    :class:`~arena.agents._context.AgentContext`; returns the runnable)."""
    from arena.agents.research.react import build_react_agent

    return build_react_agent(ctx.model, ctx.tools, ctx.system_prompt, ctx.max_steps)


@agent_architecture(
    "supervisor", "a supervisor routing to researcher, analyst and writer", order=20
)
def build_supervisor(ctx: Any) -> Any:
    """The ``supervisor`` architecture: a supervisor routing to researcher, analyst, writer."""
    from arena.agents.research.supervisor import build_supervisor_agent

    return build_supervisor_agent(
        ctx.model,
        ctx.tools,
        ctx.max_steps,
        ctx.variant.max_iterations,
        role_models=ctx.role_models,
    )


def builtin_tools(
    *,
    model: BaseChatModel | None,
    sandbox: Sandbox | TaskSandbox | None,
    enabled: Sequence[str] | None = None,
) -> list[BaseTool]:
    """The built-in architectures' tools (the research agent's), those ``enabled`` (all of
    :data:`arena.defaults.TOOL_NAMES` when None): ``model`` serves the model-backed ones,
    ``write_file`` writes into ``sandbox`` (:data:`arena.sandbox.TASK_SANDBOX`: the running
    task's). The runner builds them here, so it imports no specific agent."""
    from arena.agents.research.tools import build_tools

    return build_tools(model=model, sandbox=sandbox, enabled=enabled)

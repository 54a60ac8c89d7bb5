"""What a bring-your-own factory declares: its own tools, its roles and the model of its
``params``.

.. code-block:: python

    @agent_factory(tools=[convert_units, scale_recipe], params=KitchenParams, roles=["router"])
    def build(ctx: AgentContext) -> Runnable: ...

A variant's ``tools:`` then selects among the declared tools (``ctx.tools`` holds the
selection, in the variant's order), its ``roles:`` may give each declared role a model of its
own (``ctx.model_for("router")``), its ``params:`` are validated against ``params`` when the
variant loads (``ctx.params`` is the validated model), and tool calls are checked against the
declared tools as selected, never against the built-in Research Agent's. A factory that
declares no tools takes no ``tools:``, one that declares no roles no ``roles:``.

Tools that change things (cancel an order, send a mail) are declared **side-effecting**, on
the factory (``side_effecting=["cancel_order"]``) or on the tool itself
(``metadata={"side_effecting": True}``): the runner records them with each result, and a call
of one that the case does not expect is a hard fail (:mod:`arena.scoring._calls`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool
    from pydantic import BaseModel

F = TypeVar("F", bound=Callable[..., Any])
MARK = "__arena_factory__"


@dataclass(frozen=True)
class FactorySpec:
    """A factory's declared tools (None: not declared), params model (None: free mapping),
    roles (none declared: a variant may give it no ``roles:``) and side-effecting tools."""

    tools: tuple[BaseTool, ...] | None = None
    params: type[BaseModel] | None = None
    roles: tuple[str, ...] = ()
    side_effecting: tuple[str, ...] = ()

    @property
    def tool_names(self) -> list[str] | None:
        """The declared tools' names, in declaration order (None when none are declared)."""
        return None if self.tools is None else [t.name for t in self.tools]

    def select(self, names: Sequence[str] | None) -> list[BaseTool]:
        """The declared tools named by ``names`` (all when None), in that order."""
        by_name = {t.name: t for t in self.tools or ()}
        return list(by_name.values()) if names is None else [by_name[n] for n in names]


def agent_factory(
    *,
    tools: Sequence[BaseTool | Callable[..., Any]] | None = None,
    params: type[BaseModel] | None = None,
    roles: Sequence[str] = (),
    side_effecting: Sequence[str] = (),
) -> Callable[[F], F]:
    """Declare what your agent factory offers its variants.

    Args:
        tools: the tools the factory can give its agent (LangChain tools or plain typed
            functions with docstrings); a variant's ``tools:`` selects among them.
        params: the pydantic model a variant's ``params:`` must match (``ctx.params``).
        roles: the roles a variant's ``roles:`` may give a model of their own (read with
            ``ctx.model_for(role)``).
        side_effecting: the names of the tools that change things: a call of one that a
            case does not expect fails the case (a tool may also say so itself with
            ``metadata={"side_effecting": True}``).

    Returns:
        A decorator that marks the factory function with this declaration.

    Raises:
        ValueError: a tool or role declared twice, roles or side-effecting tools that are not
            names, or a side-effecting tool the declared tools lack.
    """
    from langchain_core.tools import BaseTool, tool

    declared = None
    if tools is not None:
        declared = tuple(t if isinstance(t, BaseTool) else tool(t) for t in tools)
        names = [t.name for t in declared]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"tool name(s) declared twice: {', '.join(duplicates)}")
    if isinstance(roles, str) or not all(isinstance(r, str) and r for r in roles):
        raise ValueError(f"roles must be a list of role names, got {roles!r}")
    twice = sorted({r for r in roles if list(roles).count(r) > 1})
    if twice:
        raise ValueError(f"role(s) declared twice: {', '.join(twice)}")
    effecting = _names("side_effecting", side_effecting)
    if declared is not None:
        unknown = [n for n in effecting if n not in {t.name for t in declared}]
        if unknown:
            raise ValueError(
                f"side_effecting names tool(s) the factory does not declare: {', '.join(unknown)}"
            )
    spec = FactorySpec(tools=declared, params=params, roles=tuple(roles), side_effecting=effecting)

    def mark(factory: F) -> F:
        setattr(factory, MARK, spec)
        return factory

    return mark


def _names(what: str, names: Sequence[str]) -> tuple[str, ...]:
    if isinstance(names, str) or not all(isinstance(n, str) and n for n in names):
        raise ValueError(f"{what} must be a list of tool names, got {names!r}")
    return tuple(dict.fromkeys(names))


def declares_side_effects(tool: Any) -> bool:
    """True when a LangChain tool says it changes things (``metadata={"side_effecting": True}``)."""
    metadata = getattr(tool, "metadata", None) or {}
    return isinstance(metadata, dict) and metadata.get("side_effecting") is True


def factory_spec(factory: Any) -> FactorySpec:
    """What ``factory`` declared with :func:`agent_factory` (nothing when undecorated)."""
    spec = getattr(factory, MARK, None)
    return spec if isinstance(spec, FactorySpec) else FactorySpec()

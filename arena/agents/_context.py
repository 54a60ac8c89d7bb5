"""What an agent factory receives: the variant, its model, its tools and its sandbox."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import Runnable

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.tools import BaseTool

    from arena.variants.variant import Variant

StateFunction = Callable[[], Mapping[str, Mapping[str, Mapping[str, Any]]]]
"""What :meth:`AgentContext.expose_state` takes: a function returning the state's records."""


@dataclass
class AgentContext:
    """Everything needed to build one agent instance for one case.

    A bring-your-own factory (``agent: package.module:factory`` in a variant) is called with
    this and returns a LangGraph graph or any runnable that takes ``{"messages": [...]}``
    (anything else is refused, see arena.factories._factories). ``tools`` are the tools the
    factory declares (see arena.factories._declare) as selected by the variant's ``tools:`` (the
    built-in Research Agent's when it declares none); ``params`` the variant's ``params:``
    (an instance of the factory's params model, or a dict); ``role_models`` the models the
    variant's ``roles:`` gives the roles the factory declares (``model_for``). ``sandbox_dir``
    is a fresh folder of this execution alone; its files are stored with the result, then it
    is removed.

    A factory whose agent changes records (orders, accounts, tickets) lends the arena its
    end state with :meth:`expose_state`, so a case's ``expected_state`` can check what the run
    changed (docs: own-agent, "Expose the end state").
    """

    variant: Variant
    model: BaseChatModel
    tools: list[BaseTool]
    sandbox_dir: Path
    extra: dict[str, Any] = field(default_factory=dict)
    role_models: dict[str, BaseChatModel] = field(default_factory=dict)
    params: Any = field(default_factory=dict)
    state_snapshot: StateFunction | None = field(default=None, repr=False)
    """The snapshot function the factory exposed (:meth:`expose_state`), else None."""

    def expose_state(self, snapshot: StateFunction) -> None:
        """Let the arena read this agent's state: ``snapshot()`` returns
        ``{collection: {record_id: {field: value}}}`` with JSON-like values (it is called
        right after the factory returns, and again after the run: for a conversation, after
        its last turn). The arena keeps its own copy of each snapshot and stores what changed,
        bounded and with secrets redacted (:class:`arena.records.end_state.StateDiff`)."""
        if not callable(snapshot):
            raise TypeError(f"expose_state takes a function, got {type(snapshot).__name__}")
        self.state_snapshot = snapshot

    def model_for(self, role: str) -> BaseChatModel:
        """The cached model of one role (the variant's ``roles``), else ``model``."""
        return self.role_models.get(role, self.model)

    @property
    def system_prompt(self) -> str:
        """The variant's resolved system prompt."""
        return self.variant.system_prompt

    @property
    def max_steps(self) -> int:
        """The variant's tool-call budget."""
        return self.variant.max_steps


AgentFactory = Callable[[AgentContext], Runnable[Any, Any]]
"""What an agent architecture is: a factory from the context to a runnable agent."""

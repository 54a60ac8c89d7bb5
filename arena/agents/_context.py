"""What an agent factory receives: the variant, its model, its tools and its sandbox."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.runnables import Runnable

from arena import registry
from arena.registry import Registry

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.tools import BaseTool

    from arena.variants.variant import Variant


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
    """

    variant: Variant
    model: BaseChatModel
    tools: list[BaseTool]
    sandbox_dir: Path
    extra: dict[str, Any] = field(default_factory=dict)
    role_models: dict[str, BaseChatModel] = field(default_factory=dict)
    params: Any = field(default_factory=dict)

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

AGENTS: Registry[AgentFactory] = registry.AGENTS
"""The agent architectures (:data:`arena.registry.AGENTS`), typed: factories."""

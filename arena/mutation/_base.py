"""What a mutation operator is (the base class a built-in or a plugin subclasses) and what it
may mutate; the built-in operators are :mod:`arena.mutation._operators`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arena.mutation._mutant import Mutant, Mutation
from arena.mutation._registry import MUTATION_OPERATORS

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

    from arena.golden import GoldenCase
    from arena.variants.variant import Variant


@dataclass(frozen=True)
class MutationTargets:
    """What the operators may mutate: the variant's tools, the cases, the weaker model."""

    tools: list[str]
    cases: list[GoldenCase] = field(default_factory=list)
    weaker_model: str | None = None


class MutationOperator:
    """A kind of fault (subclass it and register it with ``@mutation_operator(name)``).

    ``name`` and ``summary`` are set by the registry. ``kind`` is ``tool``, ``config`` or
    ``conversation`` (it decides which cases are run first and how a survivor is explained).
    """

    name: str = ""
    summary: str = ""
    kind: str = "config"

    def mutants(self, variant: Variant, targets: MutationTargets) -> list[Mutant]:
        """The mutants of ``variant`` this operator makes (none when it does not apply)."""
        raise NotImplementedError

    def wrap_tools(self, tools: list[BaseTool], mutation: Mutation) -> list[BaseTool]:
        """The tools a mutant's agent is given (a tool operator wraps its target)."""
        return tools

    def run_case(self, case: GoldenCase, mutation: Mutation) -> GoldenCase:
        """The case as the mutant runs it (a conversation operator changes the user's side;
        it is still scored against the original case)."""
        return case

    def mutation(self, target: str, **settings: Any) -> Mutation:
        """A mutation of this operator on ``target`` (what :meth:`mutants` gives each mutant)."""
        return Mutation(operator=self.name, target=target, settings=settings)


MUTATION_OPERATORS.declare_base(MutationOperator)

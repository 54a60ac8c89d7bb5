"""Mutation operators: each turns a variant into the mutants of one kind of fault.

Tool operators make one mutant per tool the variant offers (``tools_swapped`` one per pair of
tools); the prompt, model and step operators one mutant of the config; ``user_turn_dropped``
one mutant whose conversation cases stop after the user's first turn. An operator that does
not apply (no system prompt to drop, a single tool to swap, no conversation case) makes none.
A plugin adds its own with :func:`~arena.mutation._registry.mutation_operator`.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from arena.errors import InputError
from arena.mutation._base import MutationOperator, MutationTargets
from arena.mutation._mutant import Mutant, Mutation, make_mutant
from arena.mutation._registry import MUTATION_OPERATORS, mutation_operator
from arena.registry import Registry

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

    from arena.golden import GoldenCase
    from arena.variants.variant import Variant

WEAKER_LOCAL_MODEL = "local:qwen2.5-coder-0.5b"
"""The weaker model of ``model_weaker`` for a variant on another local model."""


class _ToolOperator(MutationOperator):
    """One mutant per tool the variant offers, its tool replaced by :meth:`wrap`."""

    kind = "tool"

    def mutants(self, variant: Variant, targets: MutationTargets) -> list[Mutant]:
        return [make_mutant(variant, self.mutation(tool)) for tool in targets.tools]

    def wrap_tools(self, tools: list[BaseTool], mutation: Mutation) -> list[BaseTool]:
        return [self.wrap(t) if t.name == mutation.target else t for t in tools]

    def wrap(self, tool: BaseTool) -> BaseTool:
        """The faulty tool."""
        raise NotImplementedError


@mutation_operator("tool_raises", "the tool raises on every call", order=10)
class ToolRaises(_ToolOperator):
    """The tool raises on every call."""

    def wrap(self, tool: BaseTool) -> BaseTool:
        from arena.mutation import _tools  # LangChain loads when a pass runs

        return _tools.raising(tool)


@mutation_operator("tool_empty", "the tool returns an empty result", order=20)
class ToolEmpty(_ToolOperator):
    """The tool returns an empty result."""

    def wrap(self, tool: BaseTool) -> BaseTool:
        from arena.mutation import _tools  # LangChain loads when a pass runs

        return _tools.empty(tool)


@mutation_operator(
    "tool_stale", "the tool returns a plausible wrong result (numbers perturbed)", order=30
)
class ToolStale(_ToolOperator):
    """The tool returns a plausible wrong result: numbers perturbed, or another call's output."""

    def wrap(self, tool: BaseTool) -> BaseTool:
        from arena.mutation import _tools  # LangChain loads when a pass runs

        return _tools.stale(tool)


@mutation_operator("tool_removed", "the tool is not offered to the agent", order=40)
class ToolRemoved(MutationOperator):
    """The tool is not offered to the agent (the variant's ``tools:`` without it)."""

    kind = "tool"

    def mutants(self, variant: Variant, targets: MutationTargets) -> list[Mutant]:
        return [
            make_mutant(variant, self.mutation(tool), tools=[t for t in targets.tools if t != tool])
            for tool in targets.tools
        ]


@mutation_operator("tools_swapped", "two tools' names exchanged", order=50)
class ToolsSwapped(MutationOperator):
    """Two tools' names exchanged: each name runs the other tool."""

    kind = "tool"

    def mutants(self, variant: Variant, targets: MutationTargets) -> list[Mutant]:
        return [
            make_mutant(variant, self.mutation(f"{a}<->{b}", pair=[a, b]))
            for a, b in combinations(targets.tools, 2)
        ]

    def wrap_tools(self, tools: list[BaseTool], mutation: Mutation) -> list[BaseTool]:
        a, b = mutation.settings["pair"]
        by_name = {t.name: t for t in tools}
        if a not in by_name or b not in by_name:
            return tools
        from arena.mutation import _tools  # LangChain loads when a pass runs

        new_a, new_b = _tools.swapped(by_name[a], by_name[b])
        return [new_a if t.name == a else new_b if t.name == b else t for t in tools]


@mutation_operator("prompt_dropped", "no system prompt", order=60)
class PromptDropped(MutationOperator):
    """No system prompt."""

    def mutants(self, variant: Variant, targets: MutationTargets) -> list[Mutant]:
        if not variant.system_prompt.strip():
            return []
        return [make_mutant(variant, self.mutation("system_prompt"), system_prompt="")]


@mutation_operator("prompt_truncated", "the first half of the prompt", order=70)
class PromptTruncated(MutationOperator):
    """The first half of the system prompt (cut at a word)."""

    def mutants(self, variant: Variant, targets: MutationTargets) -> list[Mutant]:
        prompt = variant.system_prompt
        half = prompt[: len(prompt) // 2].rsplit(" ", 1)[0].rstrip()
        if not half or half == prompt.strip():
            return []
        return [make_mutant(variant, self.mutation("system_prompt"), system_prompt=half)]


@mutation_operator("model_weaker", "the variant's model replaced by a named weaker one", order=80)
class ModelWeaker(MutationOperator):
    """The variant's model replaced by a named weaker one (``--weaker-model``; a local
    model's default is the 0.5B local model)."""

    def mutants(self, variant: Variant, targets: MutationTargets) -> list[Mutant]:
        spec = targets.weaker_model
        if spec is None and variant.model.provider == "local":
            spec = WEAKER_LOCAL_MODEL
        if spec is None or spec == variant.model.spec:
            return []
        model = {**variant.model.model_dump(mode="python"), "spec": spec}
        return [make_mutant(variant, self.mutation("model", spec=spec), model=model)]


@mutation_operator("max_steps_one", "a tool-call budget of one", order=90)
class MaxStepsOne(MutationOperator):
    """A tool-call budget of one step."""

    def mutants(self, variant: Variant, targets: MutationTargets) -> list[Mutant]:
        if variant.max_steps <= 1:
            return []
        return [make_mutant(variant, self.mutation("max_steps"), max_steps=1)]


@mutation_operator(
    "user_turn_dropped", "the user gives up after its first turn (conversations)", order=100
)
class UserTurnDropped(MutationOperator):
    """The user gives up after its first turn (conversation cases)."""

    kind = "conversation"

    def mutants(self, variant: Variant, targets: MutationTargets) -> list[Mutant]:
        if not any(_longer_than_one_turn(c) for c in targets.cases):
            return []
        return [make_mutant(variant, self.mutation("user"))]

    def run_case(self, case: GoldenCase, mutation: Mutation) -> GoldenCase:
        talk = case.conversation
        if talk is None or not _longer_than_one_turn(case):
            return case
        if talk.user is not None:
            user = talk.user.model_copy(update={"max_turns": 1})
            return case.model_copy(update={"conversation": talk.model_copy(update={"user": user})})
        short = talk.model_copy(update={"turns": talk.turns[:1]})
        return case.model_copy(update={"conversation": short})


def _longer_than_one_turn(case: GoldenCase) -> bool:
    talk = case.conversation
    if talk is None:
        return False
    return talk.user.max_turns > 1 if talk.user is not None else len(talk.turns) > 1


OPERATORS: Registry[MutationOperator] = MUTATION_OPERATORS
"""The mutation operators (:data:`arena.mutation._registry.MUTATION_OPERATORS`), typed."""


def operator(name: str, *, file: str | None = None, field: str = "--operators") -> MutationOperator:
    """The registered operator ``name`` (InputError naming ``file`` and ``field`` when
    unknown: ``--operators``, or ``arena.yaml``'s ``mutation.operators``)."""
    if name not in OPERATORS:
        raise InputError(
            f"unknown mutation operator {name!r}; known: {', '.join(OPERATORS.names())}",
            file=file,
            field=field,
        )
    return OPERATORS.lookup(name)

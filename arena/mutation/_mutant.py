"""A mutant: the variant under test with one injected fault, wrapping its tools or config.

A :class:`Mutant` is a :class:`~arena.variants.variant.Variant` whose copy of the config
carries the fault (no prompt, another model, ``tools:`` without one tool, ...) or whose tools
are wrapped when the runner hands them to the agent (:class:`MutantTools`, the run option
:attr:`arena.runner.RunOptions.wrap_tools` of its batches). The user's
files are never edited. Its :class:`Mutation` enters its version hash, so it runs under a
name and version of its own: a rerun reuses its stored results (zero model calls) and two
mutants never share them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from arena.variants.variant import Variant
from arena.variants.version import VariantVersion, version_of


class Mutation(BaseModel):
    """One fault: the operator that injects it and what it targets.

    ``settings`` are what the operator needs to apply it again (the weaker model's spec, the
    tools' order of a swap) and are part of the mutant's version.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    operator: str = Field(description="The registered mutation operator's name.")
    target: str = Field(
        description="What it mutates: a tool's name, 'A<->B', or a part of the config."
    )
    settings: dict[str, Any] = Field(default_factory=dict, description="The operator's settings.")

    @property
    def id(self) -> str:
        """``operator:target``, the mutant's id in reports."""
        return f"{self.operator}:{self.target}"


def mutant_name(variant: str, mutation: Mutation) -> str:
    """The mutant's variant name: ``<variant>.<operator>.<target>`` (a variant name's alphabet)."""
    target = re.sub(r"[^A-Za-z0-9_.-]+", "-", mutation.target).strip("-.") or "config"
    return f"{variant}.{mutation.operator}.{target}"


class Mutant(Variant):
    """A variant with one :class:`Mutation` applied (see the module's docstring).

    ``mutation`` is left out of the stored config (a stored mutant reads back as a plain
    variant under its own name and version); it enters :attr:`version` instead.
    """

    mutation: Mutation = Field(exclude=True, description="The injected fault.")
    original: str = Field("", exclude=True, description="The mutated variant's name.")

    @property
    def version(self) -> VariantVersion:
        """The original config's version parts, with the mutation added to the config's."""
        if self._version is None:
            base = version_of(self)
            config = {"config": base.config, "mutation": self.mutation.model_dump(mode="json")}
            self._version = VariantVersion.build(config, base.code, base.tools, base.models)
        return self._version


@dataclass(frozen=True)
class MutantTools:
    """The run option that injects a mutation's fault into the tools the runner hands the
    agent (:attr:`arena.runner.RunOptions.wrap_tools`): the tools as the mutation's operator
    wraps them (unchanged for config operators). Picklable, so it reaches an executor's
    worker with each task."""

    mutation: Mutation

    def __call__(self, tools: list[Any]) -> list[Any]:
        """``tools`` as the operator wraps them."""
        from arena.mutation._registry import MUTATION_OPERATORS

        operator = MUTATION_OPERATORS.lookup(self.mutation.operator)
        wrapped: list[Any] = operator.wrap_tools(tools, self.mutation)
        return wrapped


def make_mutant(variant: Variant, mutation: Mutation, **changes: Any) -> Mutant:
    """``variant`` with ``mutation`` applied and its config fields ``changes`` replaced.

    Args:
        variant: the variant to mutate (its files are not touched).
        mutation: the fault; it names the mutant and enters its version.
        changes: variant fields to replace in the mutant's copy (``system_prompt=""``,
            ``tools=[...]``, ``model={...}``).

    Returns:
        The mutant, named ``<variant>.<operator>.<target>``.
    """
    body = variant.model_dump(mode="python", by_alias=False)
    body.update(changes)
    body["name"] = mutant_name(variant.name, mutation)
    body["description"] = f"mutant of {variant.name}: {mutation.operator} of {mutation.target}"
    mutant = Mutant.model_validate({**body, "mutation": mutation, "original": variant.name})
    mutant._source_file = variant.source_file
    return mutant

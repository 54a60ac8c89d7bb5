"""Mutation testing of a golden set (``arena mutate``): inject faults into a variant's tools
and config, run the golden set on each mutant, and report the faults it would miss.

Public names load on first use: the operators' registry (:mod:`arena.mutation._registry`)
is read without loading a run's code.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real names, for type checkers
    from arena.mutation._base import MutationOperator, MutationTargets
    from arena.mutation._mutant import Mutant, MutantTools, Mutation, make_mutant, mutant_name
    from arena.mutation._operators import OPERATORS, WEAKER_LOCAL_MODEL, operator
    from arena.mutation._pass import (
        MutationOptions,
        build_mutants,
        check_mutation,
        run_mutation,
        variant_tools,
    )
    from arena.mutation._plan import Bound, MutationPlan, plan_mutation
    from arena.mutation._registry import MUTATION_OPERATORS, mutation_operator
    from arena.mutation._report import (
        MutantResult,
        MutationReport,
        mutation_markdown,
        mutation_score,
        unfounded_score,
    )
    from arena.mutation._stored import latest_mutation_summary, mutation_lines

_EXPORTS = {
    "MutationOperator": "arena.mutation._base",
    "MutationTargets": "arena.mutation._base",
    "Mutant": "arena.mutation._mutant",
    "MutantTools": "arena.mutation._mutant",
    "Mutation": "arena.mutation._mutant",
    "make_mutant": "arena.mutation._mutant",
    "mutant_name": "arena.mutation._mutant",
    "MUTATION_OPERATORS": "arena.mutation._registry",
    "OPERATORS": "arena.mutation._operators",
    "WEAKER_LOCAL_MODEL": "arena.mutation._operators",
    "mutation_operator": "arena.mutation._registry",
    "operator": "arena.mutation._operators",
    "MutationOptions": "arena.mutation._pass",
    "build_mutants": "arena.mutation._pass",
    "check_mutation": "arena.mutation._pass",
    "run_mutation": "arena.mutation._pass",
    "variant_tools": "arena.mutation._pass",
    "Bound": "arena.mutation._plan",
    "MutationPlan": "arena.mutation._plan",
    "plan_mutation": "arena.mutation._plan",
    "MutantResult": "arena.mutation._report",
    "MutationReport": "arena.mutation._report",
    "mutation_markdown": "arena.mutation._report",
    "mutation_score": "arena.mutation._report",
    "unfounded_score": "arena.mutation._report",
    "latest_mutation_summary": "arena.mutation._stored",
    "mutation_lines": "arena.mutation._stored",
}


__all__ = [
    "MUTATION_OPERATORS",
    "OPERATORS",
    "WEAKER_LOCAL_MODEL",
    "Bound",
    "Mutant",
    "MutantResult",
    "MutantTools",
    "Mutation",
    "MutationOperator",
    "MutationOptions",
    "MutationPlan",
    "MutationReport",
    "MutationTargets",
    "build_mutants",
    "check_mutation",
    "latest_mutation_summary",
    "make_mutant",
    "mutant_name",
    "mutation_lines",
    "mutation_markdown",
    "mutation_operator",
    "mutation_score",
    "operator",
    "plan_mutation",
    "run_mutation",
    "unfounded_score",
    "variant_tools",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.mutation' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

"""Mutation testing of a golden set (``arena mutate``): inject faults into a variant's tools
and config, run the golden set on each mutant, and report the faults it would miss."""

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
from arena.mutation._report import (
    MutantResult,
    MutationReport,
    mutation_markdown,
    mutation_score,
    unfounded_score,
)
from arena.mutation._stored import latest_mutation_summary, mutation_lines

MUTATION_OPERATORS = OPERATORS
"""The mutation operators' registry (:data:`arena.registry.MUTATION_OPERATORS`), typed."""

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
    "mutation_score",
    "operator",
    "plan_mutation",
    "run_mutation",
    "unfounded_score",
    "variant_tools",
]

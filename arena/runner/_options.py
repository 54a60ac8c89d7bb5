"""RunOptions: the knobs of a suite run (their own module: the preflight checks read them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arena.records.results import RunResult

ToolWrapper = Callable[[list[Any]], list[Any]]
"""Wraps the tools a variant's agent is given (LangChain tools in, tools to hand over out):
:attr:`RunOptions.wrap_tools`. Picklable when the run goes to another process (a Ray
executor): a module-level class's instance, not a closure."""


@dataclass
class RunOptions:
    """Knobs of a suite run."""

    tier: str = "all"
    case_ids: list[str] | None = None
    repeats: int = 1
    concurrency: int = 2
    case_timeout_s: float = 600.0
    retry_errors: bool = False
    rerun: bool = False
    """Start a new run even when an identical one is stored (``arena run --rerun``)."""
    progress: bool = True
    dataset_path: str = ""
    on_result: list[Callable[[RunResult], None]] = field(default_factory=list)
    executor: Any = None
    """Where tasks run instead of inline (an ``arena.executors.Executor``: Ray, a budget)."""
    user_model: str | None = None
    """The model spec that plays simulated users whose case names none (``arena run
    --user-model``; None: the local model)."""
    offered_tools_only: bool = True
    """Refuse a case that needs a tool no variant offers (it could never pass), or whose route
    fields name a node no variant's graph has; False runs it and lets it fail (``arena run
    --allow-unoffered-tools``: the gate's baseline side, whose older code may predate a tool
    or node the pull request adds)."""
    run_config: dict[str, Any] = field(default_factory=dict)
    """Blocks added to the stored run's config when the run is created (a mutant's batch:
    ``mutation``, so ``arena runs`` can tell a mutation pass's runs apart)."""
    known_tools: frozenset[str] = frozenset()
    """Tools a baseline offered: a case that needs one still runs when no variant offers it
    (the candidate dropped it: the gate reports a regression, not bad input)."""
    wrap_tools: ToolWrapper | None = None
    """Wraps the tools every variant's agent of the run is given, after the variant selects
    them and before the factory or built-in agent gets them (a mutant's batch: its operator's
    fault, :class:`arena.mutation.MutantTools`); None hands them over as they are."""
    known_nodes: frozenset[str] = frozenset()
    """Graph nodes a baseline had (full names): a case that names one still runs when no
    variant's graph has it (the candidate renamed or dropped it: a regression)."""

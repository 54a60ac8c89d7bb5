"""The task list a run executes: variants x selected cases x repeats, and its resumable identity."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property

from arena.defaults import ALL_TIERS, TIER_CHOICES
from arena.errors import InputError
from arena.golden import GoldenCase, GoldenDataset, dataset_hash
from arena.models import ModelConfig
from arena.runner._options import ToolWrapper
from arena.runner._user_model import task_case_hash, user_model_config
from arena.variants.variant import Variant


@dataclass(frozen=True)
class Task:
    """One agent execution: a variant on a case, for one repeat.

    ``user_model`` is the run's user model option (see :mod:`arena.runner._user_model`); it
    only matters to a case with a simulated user. ``wrap_tools`` is the run's
    :attr:`~arena.runner.RunOptions.wrap_tools` (carried by the task so that it reaches an
    executor's worker too); it is no part of the task's identity.
    """

    variant: Variant
    case: GoldenCase
    repeat: int
    user_model: ModelConfig | None = None
    wrap_tools: ToolWrapper | None = field(default=None, compare=False)

    @cached_property
    def key(self) -> tuple[str, str, int]:
        """(variant hash, case hash, repeat): how finished results are matched on resume
        (computed once: both hashes serialise the whole variant or case). A simulated
        user's model is part of the case hash (:func:`task_case_hash`)."""
        return (self.variant.version_hash, task_case_hash(self.case, self.user_model), self.repeat)


def select_cases(
    dataset: GoldenDataset, tier: str = "all", case_ids: list[str] | None = None
) -> list[GoldenCase]:
    """The cases of a tier (critical, standard, pending or all), optionally only some ids."""
    if tier not in TIER_CHOICES:
        raise InputError(f"unknown tier {tier!r}; use {', '.join(TIER_CHOICES)}", field="tier")
    cases = [c for c in dataset.test_cases if tier == ALL_TIERS or c.tier.value == tier]
    if case_ids:
        known = {c.id for c in dataset.test_cases}
        missing = [cid for cid in case_ids if cid not in known]
        if missing:
            raise InputError(f"unknown case id(s): {', '.join(missing)}", field="cases")
        wanted = set(case_ids)
        cases = [c for c in cases if c.id in wanted]
    if not cases:
        raise InputError(f"no cases selected (tier {tier}, cases {case_ids or 'all'})")
    return cases


def plan_tasks(
    variants: list[Variant],
    cases: list[GoldenCase],
    repeats: int,
    user_model: ModelConfig | None = None,
    wrap_tools: ToolWrapper | None = None,
) -> list[Task]:
    """Every (variant, case, repeat), variant-major: concurrent tasks then share one model
    server instead of oversubscribing the CPU with several local servers at once."""
    if repeats < 1:
        raise InputError("repeats must be at least 1", field="repeats")
    return [
        Task(v, c, r, user_model, wrap_tools)
        for v in variants
        for r in range(repeats)
        for c in cases
    ]


def run_key(
    dataset: GoldenDataset,
    variants: list[Variant],
    cases: list[GoldenCase],
    repeats: int,
    user_model: ModelConfig | None = None,
) -> str:
    """Same dataset, variant versions, cases and repeats give the same run (so it resumes);
    with simulated users, also the same models playing them (a run without any keeps the key
    it always had)."""
    doc: dict[str, object] = {
        "dataset": dataset_hash(dataset),
        "variants": sorted(v.version_hash for v in variants),
        "cases": sorted(c.id for c in cases),
        "repeats": repeats,
    }
    players = {
        c.id: task_case_hash(c, user_model)
        for c in cases
        if user_model_config(c, user_model) is not None
    }
    if players:
        doc["user_models"] = players
    blob = json.dumps(doc, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]

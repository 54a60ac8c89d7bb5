"""Critical cases edited since the baseline: the candidate must still pass their previous version.

The baseline side (:mod:`arena.ci._baseline_side`) compares the candidate with the
baseline's code on a case's *new* content, so a change that breaks a tool and, in the same
pull request, loosens the critical case that would have caught it (drops ``expected_tools``,
an output check, a route check) would pass. So for each case critical in the baseline whose
content changed, the gate also finds the baseline's own version of it (the baseline's stored
run, else the dataset file at the baseline's commit; the version whose content hash the
baseline recorded), runs the candidate on it, and compares that with the baseline's record:
a pass the candidate loses is ``critical_broken`` (:func:`arena.gate._rules.compare_snapshots`).
The checks the edit removed are named as *weakened*, whether or not the candidate passes.

An edit meant to change what the case asks lands with a new baseline saved in the same change
(``arena baseline save VARIANT --export FILE``): the case is then no longer edited since it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arena.ci._baseline_side import BaselineSide, baseline_commit
from arena.ci._worktree import CommitUnavailable, file_at, repository_top
from arena.errors import ArenaError
from arena.gate._alignment import align
from arena.gate._changed import touched
from arena.golden import GoldenCase, GoldenDataset, case_hash
from arena.golden._models import Tier
from arena.project._config import GateConfig
from arena.runner import RunOptions
from arena.scoring._baseline import Baseline, CaseRecord
from arena.scoring.checks import golden_checks
from arena.storage import Store
from arena.variants.variant import Variant

LISTED = (
    "expected_tools",
    "expected_order",
    "expected_output_contains",
    "expected_output_not_contains",
    "expected_files",
    "forbidden_tools",
    "expected_route",
    "forbidden_nodes",
    "expected_calls",
)
"""Checks of which each item is a requirement: an item the edit removed weakens the case."""
SINGLE = (
    "expected_output_regex",
    "expected_output_exact",
    "expected_behavior",
    "rubric",
    "expected_graph_trajectory",
    "route_match",
    "conversation",
)
"""Checks the edit may drop altogether."""
ALLOWANCES = ("acceptable_tools", "expected_tool_errors", "allow_extra_calls")
"""Lists of which each item excuses something: an item the edit added weakens the case."""
LIMITS = ("max_supersteps", "max_steps")
"""Upper limits: raised or removed weakens the case."""
COVERED = frozenset((*LISTED, *SINGLE, *ALLOWANCES, *LIMITS, "expected_args", "min_tool_calls"))
"""The fields read above; every other field of a check is weakened as the check says
(:meth:`~arena.scoring.checks.GoldenCheck.weakened`)."""
PREVIOUS = "previous"
"""The candidate's name suffix in the run on previous versions (never its latest run)."""


def _items(values: Any) -> list[str]:
    return [json.dumps(v, sort_keys=True) for v in values or []]


def weakened_checks(before: GoldenCase, after: GoldenCase) -> list[str]:
    """The checks ``after`` lost against ``before``, one phrase each (empty: none lost)."""
    old, new = before.model_dump(mode="json"), after.model_dump(mode="json")
    found = []
    for field in LISTED:
        gone = [v for v in _items(old.get(field)) if v not in _items(new.get(field))]
        if gone:
            found.append(f"{field} lost {', '.join(gone)}")
    args = {k: v for k, v in (old.get("expected_args") or {}).items()}
    lost_args = [k for k, v in args.items() if (new.get("expected_args") or {}).get(k) != v]
    if lost_args:
        found.append(f"expected_args changed for {', '.join(lost_args)}")
    found += [f"{field} removed" for field in SINGLE if old.get(field) and not new.get(field)]
    for field in ALLOWANCES:
        added = [v for v in _items(new.get(field)) if v not in _items(old.get(field))]
        if added:
            found.append(f"{field} gained {', '.join(added)}")
    for field in LIMITS:
        was, now = old.get(field), new.get(field)
        if was and (not now or now > was):
            found.append(f"{field} {was} -> {now or 'none'}")
    if (new.get("min_tool_calls") or 0) < (old.get("min_tool_calls") or 0):
        found.append(f"min_tool_calls {old['min_tool_calls']} -> {new.get('min_tool_calls') or 0}")
    for check in golden_checks():  # a check's own fields: it says how they weaken
        own = tuple(
            f for f in dict.fromkeys((*check.fields, *check.extra_fields)) if f not in COVERED
        )
        found += [p for p in check.weakened(before, after, own) if p not in found]
    return found


def _stored_cases(store: Store, baseline: Baseline) -> list[GoldenCase]:
    if baseline.source_run_id is None:
        return []
    try:
        return store.run_dataset(baseline.source_run_id).test_cases
    except ArenaError:
        return []  # a fresh database (CI): the baseline's commit holds the file


def _committed_cases(config: GateConfig, baseline: Baseline, dataset: str) -> list[GoldenCase]:
    top = repository_top(Path(config.base_dir).resolve())
    commit, _ = baseline_commit(top, baseline)
    relative = Path(dataset).resolve().relative_to(top)
    raw = json.loads(file_at(top, commit, relative))
    cases = raw.get("test_cases") if isinstance(raw, dict) else None
    return [GoldenCase.model_validate(c) for c in cases or [] if isinstance(c, dict)]


def previous_versions(
    store: Store, config: GateConfig, baseline: Baseline, cases: list[str], dataset: str
) -> tuple[dict[str, GoldenCase], dict[str, str]]:
    """The baseline's own version of each of ``cases`` (the content hash it recorded), and why
    each one not found is missing."""
    wanted = {c: baseline.cases[c].hash for c in cases}
    found = {c.id: c for c in _stored_cases(store, baseline) if wanted.get(c.id) == case_hash(c)}
    why = "not in the baseline's stored run"
    if len(found) < len(wanted):
        try:
            committed = _committed_cases(config, baseline, dataset)
            found |= {c.id: c for c in committed if wanted.get(c.id) == case_hash(c)}
            why += " nor in the dataset file at the baseline's commit"
        except (CommitUnavailable, ValueError, ArenaError) as exc:
            why += f", and the baseline's commit cannot be read: {exc}"
    return found, {c: why for c in wanted if c not in found}


def run_previous(
    store: Store,
    config: GateConfig,
    run: tuple[Variant, GoldenDataset, RunOptions],
    cases: dict[str, GoldenCase],
) -> tuple[dict[str, CaseRecord], int]:
    """The candidate's records on ``cases`` (previous versions), and the run that made them
    (``run``: the candidate, its dataset and the gate run's options)."""
    from dataclasses import replace

    from arena.evaluation.run_scores import make_grader, score_run
    from arena.runner import run_suite
    from arena.scoring._baseline import make_baseline

    candidate, current, options = run
    dataset = current.model_copy(
        update={"test_cases": list(cases.values()), "content_hash": None, "changelog": []}
    )
    variant = candidate.model_copy(update={"name": f"{candidate.name}-{PREVIOUS}"})
    # the previous version may need a tool or node the candidate no longer has: it then fails
    chosen = replace(
        options, tier="all", case_ids=list(cases), dataset_path="", offered_tools_only=False
    )
    report = run_suite(store, dataset, [variant], chosen)
    scores = score_run(store, report.run_id, make_grader(config.grader, store))
    snap = make_baseline(
        scores.variant(variant.name),
        scores.cases,
        name=variant.name,
        dataset=dataset,
        results=store.results(report.run_id),
    )
    return {c: snap.cases[c] for c in cases if c in snap.cases}, report.run_id


def with_previous(
    store: Store,
    config: GateConfig,
    baseline: Baseline | None,
    run: tuple[Baseline, Variant, GoldenDataset, RunOptions],
    side: BaselineSide | None,
) -> BaselineSide | None:
    """``side`` with the candidate's records on the previous version of each critical case
    edited since ``baseline`` (``run``: the candidate's snapshot and variant, the dataset and
    the run's options), and the checks each edit removed (module docstring)."""
    cand, variant, dataset, options = run
    if baseline is None or side is None:
        return side
    now = {c.id: c for c in dataset.test_cases}
    changed = touched(align(baseline, cand, {k: case_hash(v) for k, v in now.items()}), cand)
    records = baseline.cases
    edited = [c for c in changed if c in records and records[c].tier == Tier.CRITICAL]
    edited = [c for c in edited if records[c].hash]
    if not edited:
        return side
    found, missing = previous_versions(store, config, baseline, edited, options.dataset_path)
    weakened = {c: "; ".join(w) for c in found if (w := weakened_checks(found[c], now[c]))}
    previous, run_id = (
        run_previous(store, config, (variant, dataset, options), found) if found else ({}, None)
    )
    return side.model_copy(
        update={
            "previous": previous,
            "previous_run": run_id,
            "previous_missing": missing,
            "weakened": weakened,
        }
    )

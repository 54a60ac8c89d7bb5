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
from arena.scoring.checks import WEAKENINGS, GoldenCheck, golden_checks
from arena.storage import Store
from arena.variants.variant import Variant

PREVIOUS = "previous"
"""The candidate's name suffix in the run on previous versions (never its latest run)."""


def weakened_checks(before: GoldenCase, after: GoldenCase) -> list[str]:
    """The checks ``after`` lost against ``before``, one phrase each (empty: none lost).

    Every registered check is asked of each field it reads that the edit changed
    (:meth:`~arena.scoring.checks.GoldenCheck.weakened`); a field read by several checks is
    asked of the first of them, in registry order. The phrases come by kind of weakening
    (the order of :data:`~arena.scoring.checks.WEAKENINGS`: items lost, mapping entries
    changed, fields removed, allowances gained, upper limits raised, lower limits lowered),
    then in the order of the fields of :class:`GoldenCase`, then a plugin's own fields in
    registry order.
    """
    old, new = before.model_dump(mode="json"), after.model_dump(mode="json")
    owners: dict[str, GoldenCheck] = {}
    for check in golden_checks():
        for field in check.read_fields():
            owners.setdefault(field, check)
    place = {field: i for i, field in enumerate(GoldenCase.model_fields)}

    def rank(field: str) -> tuple[int, int]:
        how = owners[field].weakening_of(field, old.get(field))
        return WEAKENINGS.index(how), place.get(field, len(place))

    found: list[str] = []
    for field in sorted((f for f in owners if old.get(f) != new.get(f)), key=rank):
        found += [p for p in owners[field].weakened(before, after, (field,)) if p not in found]
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

"""Baselines in practice: load one by file or name, snapshot a stored run, propose an update.

A baseline update is *proposed* only when the improvement is sustained: in each of the last
``runs`` stored runs of the candidate (newest first) nothing blocking regressed and the suite
score over the compared cases rose by more than ``min_gain``; in the newest one the whole
paired-bootstrap interval of that rise is above ``min_gain`` and every repeat on its own
scores above the baseline. The proposal only moves the baseline up
(:func:`arena.scoring.should_update_baseline`).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from arena.ci._worktree import is_commit_hash
from arena.errors import InputError
from arena.gate._rule_config import RuleConfig
from arena.gate._rules import compare_snapshots
from arena.scoring import RULES_VERSION, older_rules_note
from arena.scoring._aggregate import VariantScores
from arena.scoring._baseline import (
    Baseline,
    baseline_from_json,
    make_baseline,
    should_update_baseline,
)
from arena.scoring._types import mean
from arena.storage import Store


def load_baseline_file(path: str | Path) -> Baseline:
    """A baseline JSON file (InputError naming the file when it is unreadable or invalid)."""
    from arena.inputs.files import parse_json, read_text

    text = read_text(path)  # missing, a folder, not UTF-8, too large
    parse_json(text, file=str(path))  # strict: depth, a key given twice, NaN
    try:
        baseline = baseline_from_json(text, file=str(path))
    except ValueError as exc:
        raise InputError(
            f"not a baseline: {' '.join(str(exc).split())[:300]}", file=str(path)
        ) from None
    commit = baseline.provenance.get("commit")
    if commit and not is_commit_hash(commit):
        raise InputError(
            f"{commit!r} is not a commit hash (the gate would read it in today's repository, "
            "not as the commit the baseline was made at); write the hash `git rev-parse` "
            "gives, or save the baseline again from a git checkout",
            file=str(path),
            field="provenance.commit",
        )
    return baseline


def load_baseline(store: Store, ref: str) -> Baseline:
    """A baseline from a JSON file (``*.json`` or an existing path) or stored under a name."""
    if ref.endswith(".json") or Path(ref).exists():
        return load_baseline_file(ref)
    baseline = store.baseline(ref)
    if baseline is None:
        raise InputError(
            f"no baseline named {ref!r}; save one with `arena baseline save`", field="baseline"
        )
    return baseline


def run_snapshot(
    store: Store, variant: str, run_id: int | None = None, name: str | None = None
) -> tuple[Baseline, VariantScores]:
    """The snapshot of a variant in a stored run (newest holding it), and its aggregate."""
    from arena.evaluation.run_scores import load_run_scores
    from arena.runner import run_with_variant

    run_id = run_with_variant(store, variant, run_id)
    scores = load_run_scores(store, run_id)
    aggregate = scores.variant(variant)
    cases = [
        c for c in scores.cases if c.variant == variant and c.variant_hash == aggregate.variant_hash
    ]
    stored = next(
        (
            v
            for v in store.variants()
            if v.name == variant and v.version_hash == aggregate.variant_hash
        ),
        None,
    )
    config = None if stored is None else stored.model_dump(mode="json")
    version = None if stored is None else stored.version.model_dump()
    info = store.run(run_id)
    snap = make_baseline(
        aggregate,
        cases,
        name=name or variant,
        dataset=store.run_dataset(run_id),
        results=store.results(run_id),
        source_run_id=run_id,
        variant_config=config,
        variant_version=version,
        provenance=dict(info.config.get("provenance") or {}),
        rules_version=scores.rules_version,
    )
    return snap, aggregate


def current_rules(store: Store, baseline: Baseline) -> tuple[Baseline, str | None]:
    """The baseline graded by today's scoring rules, and a note when it was not saved so.

    A baseline graded by older rules is re-graded from its run's stored results when this
    database holds them (no model call: :func:`run_snapshot`); otherwise it is kept, and the
    note says its differences may be the rules' alone.
    """
    if not baseline.older_rules:
        return baseline, None
    older = (
        f"baseline {baseline.name!r} was graded by older rules (scoring rules "
        f"{baseline.rules_version}, this is {RULES_VERSION})"
    )
    run_id = baseline.source_run_id
    if run_id is not None and _holds(store, run_id, baseline):
        snap, _ = run_snapshot(store, baseline.variant, run_id, name=baseline.name)
        snap = snap.model_copy(update={"created_at": baseline.created_at})
        if not snap.older_rules:
            return snap, (
                f"{older}: its side was re-graded from its stored results in run {run_id} "
                "(no model call) before comparing"
            )
        return baseline, older_rules_note(
            f"baseline {baseline.name!r} (run {run_id})",
            snap.rules_version,
            f"arena score {run_id} --grader GRADER",
        )
    where = f"its run {run_id} is not" if run_id is not None else "no run of it is"
    return baseline, (
        f"{older}, and {where} in this database: a difference may be the rules' alone; save "
        "the baseline again (`arena baseline save`) from a run graded by today's rules"
    )


def _holds(store: Store, run_id: int, baseline: Baseline) -> bool:
    """The database holds the baseline's run with the baseline's version of its variant."""
    from arena.errors import NotFound

    try:
        store.run(run_id)
    except NotFound:
        return False
    return any(
        r.variant == baseline.variant and r.variant_hash == baseline.variant_hash
        for r in store.results(run_id)
    )


class RunCheck(BaseModel):
    """One stored run of the candidate held against the baseline."""

    run_id: int
    gain: float | None
    low: float | None
    regressed: bool
    ok: bool


class Proposal(BaseModel):
    """Whether to move the baseline up, the runs that decided it, and the new baseline."""

    model_config = ConfigDict(extra="forbid")

    propose: bool
    reasons: list[str]
    runs: list[RunCheck] = Field(default_factory=list)
    baseline: Baseline | None = None


def _candidate_runs(store: Store, variant: str, limit: int) -> list[int]:
    runs = [r for r in store.runs() if not r.is_shadow]
    return [info.id for info in runs if variant in info.config.get("variants", {})][:limit]


def _per_repeat_ok(base: Baseline, snap: Baseline, compared: list[str]) -> bool:
    before = mean([base.cases[c].score_mean or 0.0 for c in compared])
    for repeat in range(snap.n_repeats):
        now = [snap.cases[c].scores[repeat] for c in compared if len(snap.cases[c].scores) > repeat]
        if now and mean(now) <= before:
            return False
    return True


def propose_baseline(
    store: Store,
    candidate: str,
    baseline: Baseline,
    *,
    runs: int = 1,
    min_gain: float = 0.0,
    rules: RuleConfig | None = None,
) -> Proposal:
    """Propose the candidate's newest run as the new baseline when it is sustainedly better."""
    rules = rules or RuleConfig()
    ids = _candidate_runs(store, candidate, runs)
    if not ids:
        raise InputError(f"variant {candidate!r} is in no stored run", field="candidate")
    checks, newest = [], None
    for index, run_id in enumerate(ids):
        snap, _ = run_snapshot(store, candidate, run_id, name=baseline.name)
        report = compare_snapshots(baseline, snap, rules)
        gain = report.suite_delta
        ok = not report.regressed and gain is not None and gain > min_gain
        if index == 0:
            newest = snap
            low = report.suite_delta_low
            ok = (
                ok
                and (low is None or low > min_gain)
                and _per_repeat_ok(baseline, snap, report.compared_cases)
            )
        checks.append(
            RunCheck(
                run_id=run_id,
                gain=gain,
                low=report.suite_delta_low,
                regressed=report.regressed,
                ok=ok,
            )
        )
    reasons = [
        f"run {c.run_id}: gain {c.gain if c.gain is None else round(c.gain, 4)}"
        f"{'' if c.low is None else f' (interval low {c.low:+.3f})'}"
        f"{', regressed' if c.regressed else ''}: {'sustained' if c.ok else 'not'}"
        for c in checks
    ]
    if len(ids) < runs:
        reasons.append(f"only {len(ids)} of the {runs} runs asked for are stored")
    sustained = len(ids) >= runs and all(c.ok for c in checks)
    if sustained and newest is not None and not should_update_baseline(baseline, newest):
        reasons.append(
            f"suite score {newest.suite_score:.3f} is below the baseline's "
            f"{baseline.suite_score:.3f}: a baseline only moves up"
        )
        sustained = False
    return Proposal(
        propose=sustained, reasons=reasons, runs=checks, baseline=newest if sustained else None
    )


def proposal_markdown(proposal: Proposal, old: Baseline, target: str) -> str:
    """A pull-request body for a proposed baseline update."""
    new = proposal.baseline
    assert new is not None
    lines = [
        "## Raise the golden baseline",
        "",
        f"`{new.variant}@{new.variant_hash}` improved on the baseline "
        f"`{old.variant}@{old.variant_hash}` in a sustained way (`arena baseline propose`):",
        "",
        f"- suite score {old.suite_score:.3f} -> {new.suite_score:.3f}, pass rate "
        f"{old.pass_rate:.1%} -> {new.pass_rate:.1%}",
        f"- dataset {new.dataset_label}, {len(new.cases)} cases, {new.n_repeats} repeat(s)",
        *[f"- {reason}" for reason in proposal.reasons],
        "",
        f"Merging this updates `{target}`. A baseline only moves up.",
    ]
    if new.provenance:
        lines.insert(-2, "- from " + ", ".join(f"{k} {v}" for k, v in new.provenance.items()))
    return "\n".join(lines) + "\n"

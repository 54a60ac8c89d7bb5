"""``arena gate`` and ``arena check`` as library calls.

:func:`run_gate` runs what is missing (every model call is cached, a finished run is reused),
scores, applies the regression rules case by case, the absolute and cost limits, judges the
two variants pairwise in both orders and compares them, and returns one
:class:`~arena.gate._report.GateReport`. :func:`check_stored` does the same on results already
stored, without running or judging.

The baseline is a variant (run beside the candidate, in the same run) or a baseline file or
stored baseline. A file records its variant's configuration, so its variant is run again
beside the candidate for the pairwise judge (renamed ``NAME-baseline`` when the candidate has
the same name); when the candidate *is* that version, there is nothing to judge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.ci._baseline_side import BaselineSide, baseline_side
from arena.ci._previous import with_previous
from arena.compare._compare import compare_variants
from arena.compare._routes import route_changes
from arena.errors import InputError
from arena.gate._baselines import current_rules, load_baseline_file, run_snapshot
from arena.gate._crashes import crashes_of
from arena.gate._dataset_fit import check_categories
from arena.gate._dropped import baseline_nodes, baseline_tools, dropped_notes
from arena.gate._limits import (
    CostFigures,
    LimitCheck,
    check_absolute,
    check_cost_limits,
    unpriced_note,
)
from arena.gate._policy import policy_fields, would_block
from arena.gate._regression import RegressionReport
from arena.gate._report import GateReport, decide
from arena.gate._rules import compare_snapshots
from arena.golden import GoldenDataset, case_hash, dataset_hash
from arena.project._config import GateConfig
from arena.project._variant_lookup import find_variant_file, resolve_variant, variants_dir
from arena.records.provenance import provenance as current_provenance
from arena.scoring._aggregate import VariantScores
from arena.scoring._baseline import Baseline, make_baseline
from arena.storage import Store
from arena.variants.variant import Variant
from arena.variants.version import CONFIG_CHANGED, VariantVersion

if TYPE_CHECKING:
    from arena.compare.sequential._report import SequentialReport
    from arena.records.results import RunResult
    from arena.runner import RunOptions

CHECK_RUNS_NOTHING = (
    "baseline side not run: `arena check` runs no agent (`arena gate` runs the baseline's "
    "commit on them)"
)


@dataclass
class Sides:
    """What the gate compares: the candidate, and the baseline as a variant or a snapshot."""

    candidate: Variant
    baseline_variant: Variant | None = None
    baseline: Baseline | None = None
    note: str | None = None
    rules_note: str | None = None
    """Set when the baseline was graded by older scoring rules (re-graded, or why not)."""


def _judged_copy(baseline: Baseline, candidate: Variant) -> tuple[Variant | None, str | None]:
    if baseline.variant_hash == candidate.version_hash:
        return None, "the candidate is the baseline's own version: nothing to judge pairwise"
    if not baseline.variant_config:
        return None, (
            "the baseline file records no variant configuration, so its answers "
            "cannot be judged against the candidate's (save it again)"
        )
    variant = Variant.model_validate(baseline.variant_config)
    if baseline.variant_version is not None:
        recorded = VariantVersion.model_validate(baseline.variant_version)
        drift = [c for c in variant.version.changes_since(recorded) if c != CONFIG_CHANGED]
        if drift:
            return None, (
                "the baseline's answers cannot be made again, so they are not judged pairwise "
                f"(its code is not what is checked out: {'; '.join(drift)}); the golden "
                "scores still compare the candidate with the baseline file"
            )
    if variant.name == candidate.name:
        variant = variant.model_copy(update={"name": f"{variant.name}-baseline"})
    return variant, None


def version_changes(sides: Sides, baseline: Baseline | None) -> list[str]:
    """What changed in the candidate since the baseline: configuration, agent code file by
    file, tools, models (one line each; empty when it is the baseline's own version)."""
    if sides.baseline_variant is not None and sides.baseline is None:
        return sides.candidate.version.changes_since(sides.baseline_variant.version)
    if baseline is None:
        return []
    recorded = (
        VariantVersion.model_validate(baseline.variant_version)
        if baseline.variant_version is not None
        else VariantVersion.legacy(baseline.variant_hash)
    )
    return sides.candidate.version.changes_since(recorded)


def resolve_sides(
    store: Store, config: GateConfig, baseline_ref: str, candidate_ref: str, judge: bool
) -> Sides:
    """Load the candidate variant and the baseline (variant, file or stored name)."""
    candidate = resolve_variant(candidate_ref, config, "candidate")
    path = Path(baseline_ref)
    if path.suffix == ".json":
        baseline = load_baseline_file(config.path(baseline_ref))
    elif (
        path.suffix in (".yaml", ".yml")
        or path.is_file()
        or find_variant_file(baseline_ref, config, "baseline") is not None
    ):
        variant = resolve_variant(baseline_ref, config, "baseline")
        if variant.name == candidate.name and variant.version_hash != candidate.version_hash:
            variant = variant.model_copy(update={"name": f"{variant.name}-baseline"})
        return Sides(candidate=candidate, baseline_variant=variant)
    else:
        stored = store.baseline(baseline_ref)
        if stored is None:
            raise InputError(
                f"{baseline_ref!r} is no variant in {variants_dir(config)}, no "
                "baseline file and no stored baseline",
                field="baseline",
            )
        baseline = stored
    baseline, rules_note = current_rules(store, baseline)
    copy, note = _judged_copy(baseline, candidate) if judge else (None, None)
    return Sides(
        candidate=candidate,
        baseline_variant=copy,
        baseline=baseline,
        note=note,
        rules_note=rules_note,
    )


def _cost_checks(
    config: GateConfig, base: Baseline | None, cand: Baseline, regression: RegressionReport | None
) -> tuple[list[LimitCheck], list[str]]:
    overall = CostFigures.of(cand)
    paired = None
    if base is not None and regression is not None:
        compared = regression.compared_cases
        paired = (CostFigures.of(cand, compared), CostFigures.of(base, compared))
    checks = check_cost_limits(
        overall,
        paired[1] if paired else None,
        config.budget,
        paired_candidate=paired[0] if paired else None,
    )
    notes = [
        n
        for n in (
            unpriced_note(overall, f"candidate {cand.label}"),
            unpriced_note(CostFigures.of(base), f"baseline {base.label}")
            if base is not None
            else None,
        )
        if n
    ]
    return checks, notes if config.budget.any() else []


def _hashes(dataset: GoldenDataset | None) -> dict[str, str] | None:
    return {c.id: case_hash(c) for c in dataset.test_cases} if dataset else None


def evaluate(
    config: GateConfig,
    baseline: Baseline | None,
    cand: Baseline,
    cand_scores: VariantScores,
    dataset: GoldenDataset | None,
    side: BaselineSide | None = None,
) -> tuple[RegressionReport | None, list[LimitCheck], list[str]]:
    """Regression rules, absolute and cost limits of one candidate snapshot (``side``: the
    baseline's code run on the cases changed since it, :mod:`arena.ci._baseline_side`)."""
    hashes = _hashes(dataset)
    tiers = {c.id: str(c.tier) for c in dataset.test_cases} if dataset else None
    regression = None
    if baseline is not None:
        regression = compare_snapshots(baseline, cand, config.rules, hashes, side, tiers)
        regression.would_block = would_block(
            baseline, cand, config.rules, regression, hashes, side, tiers
        )
    limits = check_absolute(cand_scores, config.absolute)
    budget, notes = _cost_checks(config, baseline, cand, regression)
    return regression, limits + budget, notes


def _label(dataset: GoldenDataset) -> str:
    return f"{dataset.name} {dataset.version} ({dataset_hash(dataset)})"


def _compare(
    store: Store, config: GateConfig, run_id: int, baseline: str, candidate: str, progress: bool
) -> dict[str, Any]:
    from arena.battles import judge_run
    from judges import parse_judge

    spec = parse_judge(str(config.judge))
    judge_run(store, run_id, spec, concurrency=config.run.concurrency, progress=progress)
    report = compare_variants(
        store,
        baseline,
        candidate,
        run_id=run_id,
        judge_key=spec.key,
        margin=config.compare.margin,
        bootstrap=config.compare.bootstrap,
        seed=config.compare.seed,
        alpha=config.rules.alpha,
    )
    return report.model_dump(mode="json")


@dataclass
class GateRun:
    """One ``arena gate``, filled in step by step by :func:`run_gate`'s steps: what it
    compares and runs (set by :func:`_plan`), then the run, the snapshots of both sides, the
    baseline's side, the rules' verdict and the pairwise comparison."""

    store: Store
    config: GateConfig
    progress: bool
    sides: Sides
    dataset: GoldenDataset
    dataset_path: str
    variants: list[Variant]
    options: RunOptions
    run_id: int = 0
    sequential: SequentialReport | None = None
    results: list[RunResult] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)
    """Where this gate runs (the commit being gated)."""
    candidate: Baseline | None = None
    candidate_scores: VariantScores | None = None
    baseline: Baseline | None = None
    side: BaselineSide | None = None
    regression: RegressionReport | None = None
    limits: list[LimitCheck] = field(default_factory=list)
    compare: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    """The baseline's and the judge's notes, shown first."""
    more: list[str] = field(default_factory=list)
    """Dropped tools and nodes, unpriced models: shown after :attr:`notes`."""
    changes: list[str] = field(default_factory=list)

    @property
    def cand(self) -> Baseline:
        """The candidate's snapshot (set by :func:`_snapshot_sides`)."""
        assert self.candidate is not None
        return self.candidate


def _plan(
    store: Store, config: GateConfig, baseline_ref: str, candidate_ref: str, progress: bool
) -> GateRun:
    """Step 1: the two sides, the dataset (its categories checked: exit 2 before any run),
    the variants to run and how."""
    from arena.golden import load_dataset
    from arena.runner import RunOptions

    # A judge, or a sequential comparison, runs the baseline beside the candidate: from a
    # baseline file that needs the variant it recorded.
    rerun_baseline = config.judge is not None or config.compare.sequential
    sides = resolve_sides(store, config, baseline_ref, candidate_ref, rerun_baseline)
    dataset_path = config.path(config.run.dataset) if config.run.dataset else None
    if dataset_path is None:
        from arena.paths import data_dir

        dataset_path = str(data_dir() / "golden" / "research_agent.json")
    dataset = load_dataset(dataset_path)
    check_categories(config, dataset)  # exit 2 before any run, as in check_stored
    variants = [sides.candidate]
    if (
        sides.baseline_variant is not None
        and sides.baseline_variant.version_hash != sides.candidate.version_hash
    ):
        variants.append(sides.baseline_variant)
    options = RunOptions(
        tier=config.run.tier,
        case_ids=config.run.cases,
        repeats=config.run.repeats,
        concurrency=config.run.concurrency,
        case_timeout_s=config.run.timeout_s,
        progress=progress,
        dataset_path=dataset_path,
        user_model=config.run.user_model,
        # a tool or node the baseline had still names a case: losing it is a regression
        known_tools=baseline_tools(sides.baseline),
        known_nodes=baseline_nodes(sides.baseline, store),
    )
    return GateRun(store, config, progress, sides, dataset, dataset_path, variants, options)


def _run_variants(gate: GateRun) -> None:
    """Step 2: run what is missing, case by case under ``--sequential`` (stopping once
    settled), else the full design."""
    from arena.runner import run_suite

    store, config, variants = gate.store, gate.config, gate.variants
    if config.compare.sequential and len(variants) == 2:
        from arena.compare.sequential._gate import gate_sequential

        gate.sequential = gate_sequential(
            store, config, gate.dataset, variants[0], variants[1], gate.options
        )
        gate.run_id = gate.sequential.run_id
    else:
        gate.run_id = run_suite(store, gate.dataset, variants, gate.options).run_id


def _snapshot_sides(gate: GateRun) -> None:
    """Step 3: score the run and snapshot the candidate (and a baseline run beside it)."""
    from arena.evaluation.run_scores import make_grader, score_run

    store, sides = gate.store, gate.sides
    scores = score_run(store, gate.run_id, make_grader(gate.config.grader, store))
    gate.results = store.results(gate.run_id)
    # where this gate runs (the commit being gated): a resumed run keeps where it was made
    gate.provenance = current_provenance()
    made = dict(store.run(gate.run_id).config.get("provenance") or {}) or gate.provenance

    def snap(variant: Variant, name: str) -> tuple[Baseline, VariantScores]:
        aggregate = scores.variant(variant.name)
        return make_baseline(
            aggregate,
            scores.cases,
            name=name,
            dataset=gate.dataset,
            results=gate.results,
            source_run_id=gate.run_id,
            variant_config=variant.model_dump(mode="json"),
            variant_version=variant.version.model_dump(),
            provenance=made,
        ), aggregate

    gate.candidate, gate.candidate_scores = snap(sides.candidate, "candidate")
    gate.baseline = sides.baseline
    gate.notes = [n for n in (sides.rules_note, sides.note) if n]
    if sides.baseline is None and sides.baseline_variant is not None:
        gate.baseline = snap(sides.baseline_variant, sides.baseline_variant.name)[0]


def _run_baseline_side(gate: GateRun) -> None:
    """Step 4: the baseline's code on the cases changed since it, and the previous versions
    of edited critical cases (:mod:`arena.ci`)."""
    store, config, sides = gate.store, gate.config, gate.sides
    side = baseline_side(
        store, config, sides.baseline, gate.cand, (gate.dataset, gate.dataset_path), gate.progress
    )
    gate.side = with_previous(
        store,
        config,
        sides.baseline,
        (gate.cand, sides.candidate, gate.dataset, gate.options),
        side,
    )


def _apply_rules(gate: GateRun) -> None:
    """Step 5: the regression rules, absolute and cost limits, dropped tools and nodes, and
    what changed in the candidate since the baseline."""
    assert gate.candidate_scores is not None
    gate.regression, gate.limits, more = evaluate(
        gate.config, gate.baseline, gate.cand, gate.candidate_scores, gate.dataset, gate.side
    )
    ran = [c for c in gate.dataset.test_cases if c.id in gate.cand.cases]
    dropped = dropped_notes(ran, gate.sides.baseline, gate.sides.candidate, gate.store)
    gate.more = [*dropped, *more]
    gate.changes = version_changes(gate.sides, gate.baseline)


def _judge_pairwise(gate: GateRun) -> None:
    """Step 6: the pairwise comparison (the sequential one, or the judge on both orders),
    or why there is none."""
    config, sides = gate.config, gate.sides
    judged = [v.name for v in gate.variants]
    if gate.sequential is not None:
        gate.compare = gate.sequential.model_dump(mode="json")
    elif config.judge is not None and len(judged) == 2:
        gate.compare = _compare(
            gate.store, config, gate.run_id, judged[1], judged[0], gate.progress
        )
    elif config.judge is not None and sides.note is None:
        gate.notes.append("the candidate and the baseline are the same version: nothing to judge")
    if config.compare.sequential and gate.sequential is None:
        why = "for the reason above" if sides.note else "the candidate is the baseline's version"
        gate.notes.append(f"--sequential did not run case by case, {why}: the full design ran")


def _verdict(gate: GateRun) -> GateReport:
    """Step 7: the verdict and its report."""
    config, sides, baseline, cand = gate.config, gate.sides, gate.baseline, gate.cand
    failures = decide(gate.regression, gate.limits, gate.compare, list(config.compare.fail_on))
    assert baseline is not None
    return GateReport(
        passed=not failures,
        baseline=f"{baseline.name} ({baseline.label})",
        candidate=cand.label,
        failures=failures,
        run_id=gate.run_id,
        dataset=_label(gate.dataset),
        settings={
            "tier": config.run.tier,
            "repeats": config.run.repeats,
            "judge": config.judge or "none",
        },
        provenance=gate.provenance,
        crashes=crashes_of(
            gate.results,
            sides.candidate.name,
            sides.candidate.agent,
            [case.id for case in gate.dataset.test_cases],
        ),
        regression=gate.regression,
        limits=gate.limits,
        compare=gate.compare,
        notes=[*gate.notes, *gate.more],
        version_changes=gate.changes,
        route_changes=route_changes(baseline, cand),
        **policy_fields(gate.regression),
    )


#: :func:`run_gate`'s steps after :func:`_plan`, in order; each fills in its part of the state.
GATE_STEPS = (_run_variants, _snapshot_sides, _run_baseline_side, _apply_rules, _judge_pairwise)


def run_gate(
    store: Store,
    config: GateConfig,
    baseline_ref: str,
    candidate_ref: str,
    *,
    progress: bool = True,
) -> GateReport:
    """Run, score, check, judge and compare (module docstring); never raises on a regression."""
    gate = _plan(store, config, baseline_ref, candidate_ref, progress)
    for step in GATE_STEPS:
        step(gate)
    return _verdict(gate)


def check_stored(
    store: Store,
    config: GateConfig,
    candidate: str,
    baseline_ref: str | None,
    run_id: int | None = None,
) -> GateReport:
    """The gate on stored results (``arena check``): rules, absolute and cost limits."""
    from arena.gate._baselines import load_baseline

    baseline = load_baseline(store, baseline_ref) if baseline_ref else None
    rules_note = None
    if baseline is not None:
        baseline, rules_note = current_rules(store, baseline)
    if baseline is None and not (config.absolute.any() or config.budget.any()):
        raise InputError(
            "nothing to check: give --baseline, or an absolute or budget limit "
            "(--min-pass-rate, --max-cost-per-query, ...)",
            field="baseline",
        )
    cand, cand_scores = run_snapshot(store, candidate, run_id, name="candidate")
    run = cand.source_run_id
    dataset = store.run_dataset(run) if run is not None else None
    if dataset is not None:
        check_categories(config, dataset)  # bad input (exit 2), as in run_gate
    side = BaselineSide(ran=False, message=CHECK_RUNS_NOTHING)
    regression, limits, notes = evaluate(config, baseline, cand, cand_scores, dataset, side)
    notes = [n for n in (rules_note, *notes) if n]
    failures = decide(regression, limits, None, [])
    return GateReport(
        passed=not failures,
        command="check",
        baseline=f"{baseline.name} ({baseline.label})" if baseline else "none (absolute limits)",
        candidate=cand.label,
        failures=failures,
        run_id=run,
        dataset=_label(dataset) if dataset else cand.dataset_label,
        provenance=current_provenance(),
        regression=regression,
        limits=limits,
        notes=notes,
        route_changes=route_changes(baseline, cand),
        **policy_fields(regression),
    )

"""A mutation pass: the original's golden run, then each mutant on the cases it passes.

Every run goes through the ordinary runner (:func:`arena.runner.run_suite`: cached,
resumable, on the run's executor, local or Ray). A mutant runs its cases most likely to kill
it first (:mod:`arena.mutation._order`), ``concurrency`` at a time, and stops after the batch
that holds its first kill unless ``full``. Each batch is a stored run of its own, keyed by the
mutant's version and its cases: the same pass again resumes every one of them and sends no
model call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from arena.errors import InputError
from arena.gate import RuleConfig
from arena.golden import GoldenCase, GoldenDataset
from arena.mutation._base import MutationOperator, MutationTargets
from arena.mutation._mutant import Mutant, MutantTools
from arena.mutation._operators import operator
from arena.mutation._order import called, order_cases, tool_targets
from arena.mutation._propose import propose
from arena.mutation._report import (
    MutantResult,
    MutationReport,
    errored_cause,
    mutation_score,
    not_injected_cause,
)
from arena.mutation._verdict import (
    Scored,
    baseline_of,
    equivalent,
    kills,
    model_failures,
    score,
    with_case_hashes,
    without_failed,
    wrapper_failures,
)
from arena.mutation._why import why_survived
from arena.records.results import RunResult, utcnow
from arena.runner import RunOptions, RunReport, run_suite, select_cases
from arena.storage import Store
from arena.variants.variant import Variant


@dataclass
class MutationOptions:
    """The knobs of a mutation pass (the run's, plus which operators and when to stop)."""

    operators: list[str] | None = None
    """Operator names (None: every registered one)."""
    tier: str = "all"
    case_ids: list[str] | None = None
    repeats: int = 1
    concurrency: int = 2
    case_timeout_s: float = 600.0
    full: bool = False
    """Run every case of every mutant instead of stopping at its first kill."""
    weaker_model: str | None = None
    """``model_weaker``'s model (default: the 0.5B local model for a local variant)."""
    rules: RuleConfig | None = None
    """The gate's rules a mutant is checked with (default: the default blocking rules)."""
    dataset_path: str = ""
    executor: Any = None
    progress: bool = False
    on_mutant: Callable[[int, int, MutantResult], None] | None = None
    """Called after each mutant with its position, the number of mutants and its verdict."""


def variant_tools(variant: Variant) -> list[str]:
    """The tools the variant offers its agent: those its factory declares as ``tools:``
    selects them, else the built-in agent's it enables."""
    if ":" in variant.agent:
        from arena.factories._factories import vet_variant

        spec = vet_variant(variant)
        if spec.tools is not None:
            return [t.name for t in spec.select(variant.tools)]
    from arena.defaults import TOOL_NAMES

    return list(variant.tools) if variant.tools is not None else list(TOOL_NAMES)


def build_mutants(
    variant: Variant,
    cases: Sequence[GoldenCase],
    names: Sequence[str] | None = None,
    weaker_model: str | None = None,
) -> list[tuple[MutationOperator, Mutant]]:
    """Every mutant of ``variant`` the operators ``names`` (all when None) make, in order (an
    operator named twice makes its mutants once)."""
    from arena.mutation._operators import OPERATORS

    named = names if names is not None else OPERATORS.names()
    chosen = [operator(n) for n in dict.fromkeys(named)]
    targets = MutationTargets(variant_tools(variant), list(cases), weaker_model)
    return [(op, m) for op in chosen for m in op.mutants(variant, targets)]


def _options(
    options: MutationOptions, case_ids: list[str], mutant: Mutant | None = None
) -> RunOptions:
    marked = (
        {}
        if mutant is None
        else {"mutation": {"of": mutant.original, "mutant": mutant.mutation.id}}
    )
    return RunOptions(
        case_ids=case_ids,
        repeats=options.repeats,
        concurrency=options.concurrency,
        case_timeout_s=options.case_timeout_s,
        progress=options.progress,
        dataset_path=options.dataset_path,
        executor=options.executor,
        wrap_tools=None if mutant is None else MutantTools(mutant.mutation),
        offered_tools_only=mutant is None,  # tool_removed takes away a tool the cases expect
        run_config=marked,  # arena runs hides a mutant's runs unless --mutants
    )


def run_again_if_failed(
    store: Store,
    dataset: GoldenDataset,
    variant: Variant,
    options: RunOptions,
    since: datetime,
) -> RunReport:
    """:func:`run_suite`, and once more retrying errored results when a stored result from
    before ``since`` (an earlier pass) is a model failure: a model that could not be reached
    then is tried again, never reused as an answer."""
    report = run_suite(store, dataset, [variant], options)
    stale = [r for r in report.results if r.created_at < since and model_failures([r])]
    if not stale:
        return report
    return run_suite(store, dataset, [variant], replace(options, retry_errors=True))


@dataclass
class PassState:
    """A pass in progress: the original's scored results, and how each mutant runs against them."""

    store: Store
    dataset: GoldenDataset
    options: MutationOptions
    original: Scored
    by_case: dict[str, list[RunResult]] = field(default_factory=dict)
    proposed_ids: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.started = utcnow()
        self.baseline = baseline_of(self.original, self.dataset)
        for r in self.original.results:
            self.by_case.setdefault(r.case_id, []).append(r)

    def batches(
        self, op: MutationOperator, mutant: Mutant, cases: list[GoldenCase]
    ) -> list[list[str]]:
        """The mutant's case ids in the batches it runs them in (likeliest killers first)."""
        ordered = [c.id for c in order_cases(op.kind, mutant.mutation, cases, self.by_case)]
        size = len(ordered) if self.options.full else max(1, self.options.concurrency)
        return [ordered[start : start + size] for start in range(0, len(ordered), size)]

    def judge(self, results: list[RunResult], complete: bool) -> tuple[list[str], list[str]]:
        """The cases the mutant broke and the gate's blocking findings, from its results (a
        case whose run failed in the model, or where its wrapper could not inject its fault,
        kills nothing)."""
        broken, blocks = kills(
            self.baseline, self.original, score(results, self.dataset), self.dataset,
            self.options.rules, complete=complete,
        )  # fmt: skip
        failed = {**model_failures(results), **wrapper_failures(results)}
        return without_failed(broken, blocks, failed)

    def run(self, op: MutationOperator, mutant: Mutant, cases: list[GoldenCase]) -> MutantResult:
        batches = self.batches(op, mutant, cases)
        run_dataset = self.run_dataset(op, mutant)
        results: list[RunResult] = []
        calls, broken, blocks = 0, list[str](), list[str]()
        for position, batch in enumerate(batches, 1):
            report = run_again_if_failed(
                self.store, run_dataset, mutant, _options(self.options, batch, mutant), self.started
            )
            calls += report.model_calls
            results += with_case_hashes(report.results, self.dataset.test_cases)
            broken, blocks = self.judge(results, complete=position == len(batches))
            if (broken or blocks) and not self.options.full:
                break
        ran = list(dict.fromkeys(r.case_id for r in results))
        return self._verdict(op, mutant, ran, results, calls, broken, blocks)

    def run_dataset(self, op: MutationOperator, mutant: Mutant) -> GoldenDataset:
        """The dataset the mutant runs: the golden set, or, when the operator changes cases
        (the user's side of a conversation), a copy named apart so it never passes for it."""
        cases = [op.run_case(c, mutant.mutation) for c in self.dataset.test_cases]
        if all(a is b for a, b in zip(cases, self.dataset.test_cases, strict=True)):
            return self.dataset
        name = f"{self.dataset.name}.{mutant.mutation.operator}"
        return self.dataset.model_copy(update={"test_cases": cases, "name": name})

    def _verdict(
        self,
        op: MutationOperator,
        mutant: Mutant,
        ran: list[str],
        results: list[RunResult],
        calls: int,
        broken: list[str],
        blocks: list[str],
    ) -> MutantResult:
        m = mutant.mutation
        named = [b.split(" ", 1)[1] for b in blocks if " " in b]
        killed_by = list(dict.fromkeys([*broken, *named]))
        not_injected = wrapper_failures(results)  # errored whatever else it did: never a kill
        killed = bool(broken or blocks) and not not_injected
        failed = not_injected or ({} if killed else model_failures(results))
        runs = {(r.case_id, r.repeat): r for r in self.original.results}
        reached = op.kind != "tool" or any(
            called(self.by_case.get(c, ()), tool) for c in ran for tool in tool_targets(m)
        )
        same = not killed and not failed and reached and equivalent(runs, results)
        result = MutantResult(
            id=m.id, operator=m.operator, target=m.target, killed=killed, killed_by=killed_by,
            equivalent=same, blocked_by=blocks, cases_run=ran, model_calls=calls,
            variant=mutant.name,
        )  # fmt: skip
        if failed:
            result.errored, result.errored_cases = True, list(failed)
            first = next(iter(failed.values()))
            result.error = (
                not_injected_cause(first)
                if not_injected
                else errored_cause(m.operator, mutant.model.spec, first)
            )
            return result
        if not killed and not same:
            cases = [self.dataset.case(c) for c in ran]
            result.why_survived = why_survived(m.operator, op.kind, m, cases, self.by_case, results)
            result.proposal = propose(
                m.operator, op.kind, m, result.why_survived, cases, self.by_case, self.dataset,
                self.options.dataset_path, self.proposed_ids,
            )  # fmt: skip
        return result


def check_mutation(
    dataset: GoldenDataset, variant: Variant, options: MutationOptions
) -> list[tuple[MutationOperator, Mutant]]:
    """The pass's mutants, after checking that the variant and every mutant can run (their
    agents import, their models can be built: a weaker model whose API key variable is unset
    is bad input, refused before anything runs). Raises InputError naming the mutant, or
    when the operators make no mutant at all (a score of 0 mutants says nothing)."""
    from arena.runner._preflight import check_run

    cases = select_cases(dataset, options.tier, options.case_ids)
    mutants = build_mutants(variant, cases, options.operators, options.weaker_model)
    if not mutants:
        named = ", ".join(dict.fromkeys(options.operators or [])) or "none"
        raise InputError(
            f"the operators ({named}) make no mutant of the variant {variant.name}: a score of "
            "0 mutants says nothing about the golden set; choose operators that apply to it "
            "(arena mutate --plan counts each operator's mutants)",
            file=variant.source_file,
            field="--operators",
        )
    run_options = _options(options, [c.id for c in cases])
    check_run([variant, *(m for _, m in mutants)], run_options)
    return mutants


def run_mutation(
    store: Store, dataset: GoldenDataset, variant: Variant, options: MutationOptions | None = None
) -> MutationReport:
    """Run a mutation pass of ``variant`` on ``dataset`` and report every mutant.

    Args:
        store: the database every run (the original's and each mutant's) is stored in.
        dataset: the golden set.
        variant: the variant to mutate (its files are never edited).
        options: operators, cases, repeats, concurrency, ``full``, the weaker model.

    Returns:
        The report: each mutant killed (and by which cases) or survived (and why), the score;
        it is also stored (``arena health`` shows the dataset's latest).

    Raises:
        InputError: an unknown operator, bad run options, or no case the original passes.
    """
    options = options or MutationOptions()
    cases = select_cases(dataset, options.tier, options.case_ids)
    mutants = check_mutation(dataset, variant, options)
    started = utcnow()
    first = run_again_if_failed(
        store, dataset, variant, _options(options, [c.id for c in cases]), started
    )
    original = score(first.results, dataset)
    passing = [c for c in cases if original.passed.get(c.id)]
    if not passing:
        raise InputError(
            f"the variant {variant.name} passes none of the {len(cases)} cases selected: a "
            f"mutant can only be killed by a case the original passes (the original's run "
            f"{first.run_id} is kept, a normal cached run: `arena score {first.run_id}` shows "
            "why its cases fail)",
            file=options.dataset_path or None,
            variant=variant.name,
        )
    state = PassState(store, dataset, options, original)
    found = []
    for position, (op, mutant) in enumerate(mutants, 1):
        found.append(state.run(op, mutant, passing))
        if options.on_mutant is not None:
            options.on_mutant(position, len(mutants), found[-1])
    report = MutationReport(
        score=mutation_score(found),
        mutants=found,
        variant=variant.name,
        dataset=f"{dataset.name} {dataset.version}",
        original_run_id=first.run_id,
        original_passed=[c.id for c in passing],
        model_calls=first.model_calls + sum(m.model_calls for m in found),
        full=options.full,
    )
    store.save_mutation(dataset.name, variant.name, report.score, report.as_json())
    return report

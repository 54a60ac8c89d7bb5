"""One ``pytest --arena`` session: the stored run its items fill, case by case, and the
suite verdict at its end."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.pytest_plugin._settings import Settings

if TYPE_CHECKING:
    from arena.gate import GateReport
    from arena.golden import GoldenCase, GoldenDataset
    from arena.records.results import RunResult
    from arena.runner._suite import OpenedRun
    from arena.scoring import CaseScore
    from arena.storage import Store
    from arena.variants.variant import Variant


@dataclass
class ArenaSession:
    """The dataset, the variant and the run ``pytest --arena`` fills (the run ``arena run``
    makes with the same dataset, variant, tier and repeats: either reuses the other's
    results)."""

    settings: Settings
    dataset: GoldenDataset
    variant: Variant
    store: Store
    opened: OpenedRun
    first_result_id: int
    fresh_calls: int = 0
    ran: int = 0
    reused: int = 0
    verdict: GateReport | None = None
    skipped_verdict: str | None = None
    cases: list[GoldenCase] = field(default_factory=list)

    @classmethod
    def open(cls, settings: Settings) -> ArenaSession:
        """Load the dataset and variant and open the stored run (InputError on bad input,
        before anything is written)."""
        from arena.golden import load_dataset
        from arena.project._variant_lookup import resolve_variant
        from arena.runner._suite import open_suite_run
        from arena.storage import Store

        dataset = load_dataset(settings.dataset)
        variant = resolve_variant(settings.variant, settings.config, "--arena-variant")
        options = _options(settings)
        store = Store(settings.db)
        opened = open_suite_run(store, dataset, [variant], options)
        seen = {t.case.id: t.case for t in opened.tasks}
        return cls(
            settings=settings,
            dataset=dataset,
            variant=variant,
            store=store,
            opened=opened,
            first_result_id=max((r.id or 0 for r in store.results(opened.run_id)), default=0),
            cases=list(seen.values()),
        )

    def run_case(self, case_id: str) -> list[RunResult]:
        """Run the case's repeats not stored yet (stored ones are reused: no model call)."""
        from arena.runner._suite import execute_tasks

        tasks = [t for t in self.opened.tasks if t.case.id == case_id]
        report = asyncio.run(
            execute_tasks(
                self.store,
                self.opened,
                [self.variant],
                tasks,
                _options(self.settings),
                finish=False,
            )
        )
        self.fresh_calls += report.model_calls
        self.reused += report.reused
        self.ran += len(report.results) - report.reused
        return report.results

    def score(self, results: list[RunResult], case: GoldenCase) -> list[CaseScore]:
        """Score each result like ``arena score`` (keyword grader unless arena.yaml's
        ``grader`` names a judge)."""
        from arena.scoring import score_results

        grader = None
        if self.settings.config.grader:
            from arena.evaluation.run_scores import make_grader

            grader = make_grader(self.settings.config.grader, self.store)
        tools = set(self.dataset.available_tools)
        pairs = [(result, case) for result in results]
        return asyncio.run(score_results(pairs, grader, available_tools=tools))

    def log_langsmith(self, case: GoldenCase, result: RunResult, score: CaseScore) -> bool:
        """Record the case in LangSmith when it runs as a LangSmith test (else nothing)."""
        from arena.langsmith._testing import log_case

        return log_case(self.dataset, case, result, score)

    def finish(self) -> None:
        """Mark the run finished when every case is stored, then decide the suite verdict
        against the baseline (skipped, saying why, when some cases did not run)."""
        stored = self.store.finished_results(self.opened.run_id)
        missing = [t for t in self.opened.tasks if t.key not in stored]
        self.store.finish_run(self.opened.run_id, "stopped" if missing else "finished")
        if missing:
            cases = sorted({t.case.id for t in missing})
            self.skipped_verdict = (
                f"{len(cases)} of {len(self.cases)} case(s) have no finished result in run "
                f"{self.opened.run_id} (deselected, stopped by -x, or errored): "
                "the suite verdict needs them all"
            )
            return
        self.verdict = self._gate()

    def _gate(self) -> GateReport | None:
        from arena.gate._pipeline import check_stored

        config = self.settings.config
        ref = self.settings.baseline
        if ref is None and self.store.baseline("baseline") is not None:
            ref = "baseline"
        if ref is None and not (config.absolute.any() or config.budget.any()):
            self.skipped_verdict = (
                "no baseline to compare with (--arena-baseline, the ini key arena_baseline, "
                "arena.yaml's baseline, or one saved with `arena baseline save`)"
            )
            return None
        return check_stored(self.store, config, self.variant.name, ref, self.opened.run_id)

    def calls_made(self) -> int:
        """Model calls the results stored during this session made (all processes)."""
        stored = self.store.results(self.opened.run_id)
        return sum(r.fresh_model_calls for r in stored if (r.id or 0) > self.first_result_id)


def _options(settings: Settings) -> Any:
    from arena.runner import RunOptions

    return RunOptions(
        tier=settings.tier,
        repeats=settings.repeats,
        progress=False,
        dataset_path=str(Path(settings.dataset)),
        case_timeout_s=settings.config.run.timeout_s,
        user_model=settings.config.run.user_model,
        concurrency=settings.config.run.concurrency,
    )

"""``arena gate --sequential``: the gate's run and pairwise comparison, case by case."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.compare.sequential._driver import SequentialOptions, run_sequential
from arena.compare.sequential._report import SequentialReport
from arena.sequential import NON_INFERIORITY

if TYPE_CHECKING:
    from arena.golden import GoldenDataset
    from arena.project._config import GateConfig
    from arena.runner import RunOptions
    from arena.storage import Store
    from arena.variants.variant import Variant


def gate_sequential(
    store: Store,
    config: GateConfig,
    dataset: GoldenDataset,
    candidate: Variant,
    baseline: Variant,
    run: RunOptions,
) -> SequentialReport:
    """Run, score and judge ``candidate`` against ``baseline`` until the gate's question is
    settled: worse, or not worse (non-inferior: the gate passes either way once better or
    non-inferior holds). Without a judge it decides on the golden scores. The error level is
    ``rules.alpha`` (``--alpha``); the order's seed is derived from the run unless
    ``compare.sequential_seed`` is set (then recorded as explicit)."""
    from arena.evaluation.run_scores import make_grader
    from judges import parse_judge

    spec = parse_judge(str(config.judge)) if config.judge is not None else None
    compare = config.compare
    options = SequentialOptions(
        alpha=config.rules.alpha,
        margin=compare.margin,
        seed=compare.sequential_seed,
        batch=compare.batch,
        question=NON_INFERIORITY,
        strict_critical=compare.strict_critical,
        boundary=compare.boundary,
    )
    return run_sequential(
        store, dataset, baseline, candidate, spec, run, options, make_grader(config.grader, store)
    )

"""Benchmark: the run's scores a sequential look reads, one snapshot per look against three
loads (before and after, side by side in one run).

Run:  python -m benchmarks sequential_looks [--cases N] [--batch B] [--rounds R]

A golden set of N cases (one in ten critical) is run by two variants on scripted models (the
candidate fails one case in seven the baseline passes) through the real runner and scored, as
``arena compare --sequential --finite`` stores it. The looks go over its cases in the
sequence's seeded order, B at a time; each look reads what the driver reads after a batch: the
batch's critical cases (``critical_passes``), the outcomes without a judge
(``golden_outcomes``) and, with ``--finite``, whether they are stochastic
(``stochastic_cases``). Two ways, alternating, R rounds, best of each:

- before: each of the three loads the run's scores itself (what the driver did: three loads
  per look);
- after: one ``score_snapshot`` per look handed to all three (what the driver does now).

It checks that both read the same figures, counts the loads
(``arena.evaluation.run_scores.load_run_scores``) and prints wall and CPU seconds. Last, the
driver itself (``run_sequential``, no judge, ``finite``) runs once on the stored run and its
loads per look are counted.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.common import timer

BASELINE, CANDIDATE = "looks-baseline", "looks-candidate"


def _dataset(cases: int) -> Any:
    from arena.golden import GoldenDataset

    rows = [
        {
            "id": f"C-{i:04d}",
            "input": f"Question {i} #C-{i:04d}",
            "category": "happy_path",
            "tier": "critical" if i % 10 == 0 else "standard",
            "expected_output_contains": ["alpha"],
        }
        for i in range(cases)
    ]
    return GoldenDataset.model_validate(
        {"name": "looks", "version": "1.0.0", "available_tools": [], "test_cases": rows}
    )


def _variant(name: str, fails: Callable[[int], bool]) -> Any:
    from arena.models import register_fake
    from arena.variants.variant import Variant

    def reply(messages: list[Any]) -> str:
        case = int(str(messages[-1].content).rsplit("#C-", 1)[-1])
        return "beta" if fails(case) else "alpha"

    register_fake(name, [reply], cycle=True)
    return Variant.model_validate({"name": name, "model": {"spec": f"fake:{name}"}, "tools": []})


class _Loads:
    """Counts the run-score loads (the module attribute the trace's loader calls)."""

    def __init__(self) -> None:
        import arena.evaluation.run_scores as module

        self.module, self.real, self.count = module, module.load_run_scores, 0

    def __enter__(self) -> _Loads:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return self.real(*args, **kwargs)

        self.module.load_run_scores = counted
        return self

    def __exit__(self, *exc: object) -> None:
        self.module.load_run_scores = self.real


def _looks(
    store: Any, run_id: int, batches: list[list[str]], critical: set[str], snap: bool
) -> list[Any]:
    """Every look's reads, one snapshot per look (``snap``) or a load per read."""
    from arena.compare.sequential._trace import (
        critical_passes,
        golden_outcomes,
        score_snapshot,
        stochastic_cases,
    )

    read: list[Any] = []
    for batch in batches:
        scores = score_snapshot(store, run_id) if snap else None
        fresh = set(batch) & critical
        read.append(
            (
                critical_passes(store, run_id, BASELINE, CANDIDATE, fresh, scores=scores),
                golden_outcomes(store, run_id, BASELINE, CANDIDATE, scores),
                stochastic_cases(store, run_id, BASELINE, CANDIDATE, None, scores),
            )
        )
    return read


def main(argv: list[str] | None = None) -> int:
    """Store the run, time the looks both ways, run the driver once, print the figures."""
    from arena import SequentialOptions, run_sequential
    from arena.compare.sequential._trace import case_order
    from arena.evaluation.run_scores import score_run
    from arena.runner import RunOptions, run_suite
    from arena.storage import Store

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    dataset = _dataset(args.cases)
    baseline = _variant(BASELINE, lambda case: False)
    candidate = _variant(CANDIDATE, lambda case: case % 7 == 3)
    critical = {c.id for c in dataset.test_cases if c.tier.value == "critical"}
    order = case_order([c.id for c in dataset.test_cases], seed=7)
    batches = [order[i : i + args.batch] for i in range(0, len(order), args.batch)]
    best = {"before": float("inf"), "after": float("inf")}
    cpu = dict(best)
    loads = {}
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'looks.db'}")
        with timer() as stored:
            run_id = run_suite(
                store, dataset, [candidate, baseline], RunOptions(progress=False)
            ).run_id
            score_run(store, run_id)
        reads = {side: _looks(store, run_id, batches, critical, side == "after") for side in best}
        assert reads["before"] == reads["after"], "the snapshot changed what a look reads"
        for _ in range(args.rounds):
            for side in best:
                with _Loads() as counted, timer() as took:
                    _looks(store, run_id, batches, critical, side == "after")
                loads[side] = counted.count
                best[side] = min(best[side], took.wall)
                cpu[side] = min(cpu[side], took.cpu)
        options = SequentialOptions(batch=args.batch, finite=True, seed=7)
        with _Loads() as driven, timer() as drove:
            report = run_sequential(
                store, dataset, baseline, candidate, None, RunOptions(progress=False), options
            )
    looks = len(batches)
    print(
        f"{args.cases} cases x 2 variants ({len(critical)} critical), stored and scored in "
        f"{stored.wall:.1f} s; {looks} looks of {args.batch} cases, best of {args.rounds} "
        "rounds, alternating:"
    )
    for side in best:
        print(
            f"  {side:6}  {loads[side]:3d} score loads ({loads[side] / looks:.0f} per look), "
            f"{best[side]:.3f} s wall, {cpu[side]:.3f} s CPU"
        )
    print(
        f"after / before: {best['after'] / best['before']:.2f} wall, "
        f"{cpu['after'] / cpu['before']:.2f} CPU; the same figures read both ways"
    )
    seen = len(report.trace)
    driver_looks = -(-seen // args.batch) if seen else 0
    print(
        f"run_sequential (no judge, finite, batch {args.batch}) on the stored run: "
        f"{report.decision} after {seen} cases, {driver_looks} looks, {driven.count} score "
        f"loads, {drove.wall:.2f} s wall"
    )
    return 0

"""Benchmark: what issue 45's checks (exact calls, the end state, hard outputs) add to scoring
10,000 stored results, with and without them side by side in one run.

Run:  python -m benchmarks scoring_checks_bench [--results N] [--rounds R]

The store-support example (tests/examples/store_support: a LangGraph agent over a small store,
on a scripted model) plays each of its scripted trajectories once through the real runner.
Its results are copied (as repeats) to N stored results in four runs of one SQLite database:

- without: the cases written the old way (``expected_tools``, ``expected_args``,
  ``forbidden_tools``, output strings; tests/examples/store_support/old_fields.py), the
  results without their end state, replies and side-effecting tools (main stored none);
- old cases, new records: the same cases, the results as the runner now stores them (what
  a golden set that uses none of the new fields pays);
- with: the old cases with issue 45's fields on top (``expected_calls``, ``calls_match``,
  ``expected_state``, reply items): every old check runs and every new one;
- new fields only: the cases as the example's golden file writes them.

Each run is scored by ``arena.evaluation.run_scores.score_run`` (load the results, score
them, store the scores: what ``arena score`` does) once untimed, then R times, the runs
alternating; the figures are each run's best wall and CPU times and the added percentages
against the first, then one pass of its two parts timed apart (loading the results; scoring
them with ``arena.scoring.score_results``).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, timer

EXAMPLE = ROOT / "tests" / "examples" / "store_support"


def _played(store: Any, raw: dict[str, Any]) -> list[Any]:
    """Every trajectory played once on ``raw``'s cases through the real runner."""
    from arena.golden import GoldenDataset
    from arena.runner import RunOptions, run_suite
    from tests.examples.store_support.trajectories import TRAJECTORIES
    from tests.examples.test_store_support_agreement import register_store_script, store_variant

    register_store_script()
    variants = [store_variant(kind) for kind in TRAJECTORIES]
    dataset = GoldenDataset.model_validate(raw)
    results = run_suite(store, dataset, variants, RunOptions(progress=False)).results
    return [r for r in results if r.error is None]


def _stored_run(
    store: Any, raw: dict[str, Any], played: list[Any], n: int, key: int, state: bool
) -> int:
    """A run on ``raw``'s cases holding ``n`` copies of ``played`` (as repeats), with the
    new records (``state``) or without; its id."""
    from arena.golden import GoldenDataset

    dataset_id = store.ensure_dataset(GoldenDataset.model_validate(raw))
    run_id, _ = store.open_run(f"scoring-{key}", dataset_id, {})
    for i in range(n):
        source = played[i % len(played)]
        update: dict[str, Any] = {"id": None, "run_id": run_id, "repeat": i // len(played)}
        if not state:  # as main stored it: no end state, no replies, no side-effecting tools
            update |= {"end_state": None, "replies": [], "side_effecting": []}
        store.save_result(source.model_copy(update=update))
    store.finish_run(run_id)
    return int(run_id)


def _phases(store: Any, run_id: int) -> tuple[float, float, int]:
    """Seconds to load the run's results, seconds to score them, and how many pass."""
    import asyncio

    from arena.scoring import score_results

    with timer() as loading:
        results = store.results(run_id)
    dataset = store.run_dataset(run_id)
    cases = {c.id: c for c in dataset.test_cases}
    pairs = [(r, cases[r.case_id]) for r in results]
    with timer() as scoring:
        scores = asyncio.run(score_results(pairs, available_tools=set(dataset.available_tools)))
    return loading.wall, scoring.wall, sum(s.passed for s in scores)


def _added(times: dict[str, float], side: str) -> str:
    return f"{100 * (times[side] / times['without'] - 1):+.1f}%"


def main(argv: list[str] | None = None) -> int:
    """Store the runs, score each R times alternately, print the figures."""
    from arena.evaluation.run_scores import score_run
    from arena.storage import Store
    from tests.examples.store_support.old_fields import both_dataset, old_dataset

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--results", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    raw = json.loads((EXAMPLE / "golden" / "store.json").read_text(encoding="utf-8"))
    sides = {  # name -> (the cases, whether the results keep the new records)
        "without": (old_dataset(raw), False),
        "old cases, new records": (old_dataset(raw), True),
        "with": (both_dataset(raw), True),
        "new fields only": (raw, True),
    }
    best = dict.fromkeys(sides, float("inf"))
    cpu = dict.fromkeys(sides, float("inf"))  # steadier than wall time on a shared machine
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'scoring.db'}")
        with timer() as stored:
            played = _played(Store(f"sqlite:///{Path(folder) / 'played.db'}"), raw)
            runs = {
                side: _stored_run(store, cases, played, args.results, name, records)
                for name, (side, (cases, records)) in enumerate(sides.items())
            }
        for run_id in runs.values():
            score_run(store, run_id)  # warm: imports, registries, the database's pages
        for _ in range(args.rounds):
            for side, run_id in runs.items():
                with timer() as took:
                    score_run(store, run_id)
                best[side] = min(best[side], took.wall)
                cpu[side] = min(cpu[side], took.cpu)
        phases = {side: _phases(store, run_id) for side, run_id in runs.items()}
    print(
        f"{args.results:,} stored results per run ({len(played)} played runs copied; stored in "
        f"{stored.wall:.0f} s); score_run, best of {args.rounds} rounds, alternating:"
    )
    width = max(map(len, sides))
    for side in sides:
        load, score, passed = phases[side]
        added = (
            "" if side == "without" else f" ({_added(best, side)} wall, {_added(cpu, side)} CPU)"
        )
        print(
            f"  {side:{width}}  {best[side]:.2f} s wall, {cpu[side]:.2f} s CPU{added}; one pass: "
            f"loading {load:.2f} s, scoring {score:.2f} s, {passed:,} pass"
        )
    print(f"added by the new checks: {_added(best, 'with')} wall, {_added(cpu, 'with')} CPU")
    return 0

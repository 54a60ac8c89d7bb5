"""Throughput of the Ray executor against the local executor, side by side.

    .venv/bin/python -m benchmarks ray_bench [--tasks 600] [--concurrency 64] [--latency 0.2]
        [--workers 1,2,4] [--address ADDRESS]

An OpenAI-compatible server on 127.0.0.1 (benchmarks/chat_server.py, its own process) answers
every request after ``--latency`` seconds: first a ``calculate`` tool call, then an answer, so
each task (a react variant on copies of the shipped golden cases) makes exactly two model
calls. Every measurement is a fresh SQLite database (nothing cached) after a short warm-up on
another one (the workers' imports and model clients are not what is measured):

- local: ``arena.runner.run_suite`` in this process, ``--concurrency`` tasks in flight;
- ray, N workers: the same run with ``--executor ray``, N worker processes, the same
  ``--concurrency`` in flight across them, every request through the cluster-wide endpoint
  limiter (set to ``--concurrency``, so it never binds).

Without ``--address`` the script starts a one-machine Ray on 127.0.0.1 with this machine's
CPUs. Calls per second = model calls / wall time of the run.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, timer

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # keep Ray on 127.0.0.1
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # loopback only: no token file is written
os.environ.setdefault("ARENA_RETRY_DELAY", "0")


def suite(base_url: str, tasks: int, tag: str) -> tuple[Any, Any]:
    """A dataset of ``tasks`` distinct cases (``tag`` makes the inputs unique) and the variant."""
    from arena.golden import load_dataset
    from arena.variants.variant import Variant

    shipped = load_dataset(ROOT / "data" / "golden" / "research_agent.json")
    base = shipped.test_cases
    cases = [
        base[i % len(base)].model_copy(
            update={"id": f"bench-{i:05d}", "input": f"{base[i % len(base)].input} ({tag} #{i})"}
        )
        for i in range(tasks)
    ]
    variant = Variant.model_validate(
        {
            "name": "bench",
            "agent": "react",
            "system_prompt": "You are a research assistant.",
            "model": {"spec": "openai:bench", "base_url": base_url, "timeout": 30},
        }
    )
    return shipped.model_copy(update={"test_cases": cases}), variant


def measure(
    work: Path, label: str, base_url: str, tasks: int, concurrency: int, executor: Any, server: Any
) -> dict[str, Any]:
    """Warm up on a small run, then time a fresh run of ``tasks`` tasks."""
    from arena.runner import RunOptions, run_suite
    from arena.storage import Store

    options = RunOptions(concurrency=concurrency, progress=False, executor=executor)
    warm_data, variant = suite(base_url, max(8, concurrency // 4), f"warm {label}")
    run_suite(Store(f"sqlite:///{work / f'warm-{label}.db'}"), warm_data, [variant], options)
    dataset, variant = suite(base_url, tasks, label)
    store = Store(f"sqlite:///{work / f'{label}.db'}")
    before = server.requests()
    with timer() as took:
        report = run_suite(store, dataset, [variant], options)
    wall = took.wall
    errors = [r.error for r in report.results if r.error]
    if errors:
        raise SystemExit(f"{label}: {len(errors)} task errors, e.g. {errors[0]}")
    if report.model_calls != 2 * tasks or server.requests() - before != report.model_calls:
        raise SystemExit(
            f"{label}: {report.model_calls} calls reported, "
            f"{server.requests() - before} served, {2 * tasks} expected"
        )
    return {
        "label": label,
        "calls": report.model_calls,
        "wall_s": wall,
        "calls_per_s": report.model_calls / wall,
    }


def main(argv: list[str] | None = None) -> None:
    """Run the side-by-side throughput table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=600)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--workers", default="1,2,4", help="comma-separated worker counts")
    parser.add_argument("--address", default=None, help="an existing Ray cluster")
    args = parser.parse_args(argv)
    import ray

    from arena.executors import RayExecutor
    from benchmarks.chat_server import ChatServerProcess

    rows = []
    with (
        tempfile.TemporaryDirectory(prefix="ray-bench-") as tmp,
        ChatServerProcess(delay_s=args.latency) as server,
    ):
        work = Path(tmp)
        os.environ.setdefault("ARENA_SANDBOX_DIR", str(work / "sandboxes"))
        rows.append(
            measure(work, "local", server.base_url, args.tasks, args.concurrency, None, server)
        )
        print(f"local: {rows[-1]['calls_per_s']:.1f} calls/s", flush=True)
        ray.init(
            address=args.address,
            include_dashboard=False,
            log_to_driver=False,
            logging_level="ERROR",
            configure_logging=False,
        )
        cpus = int(ray.cluster_resources().get("CPU", 0))
        try:
            for count in (int(w) for w in args.workers.split(",")):
                executor = RayExecutor(workers=count, endpoint_concurrency=args.concurrency)
                try:
                    rows.append(
                        measure(
                            work,
                            f"ray-{count}",
                            server.base_url,
                            args.tasks,
                            args.concurrency,
                            executor,
                            server,
                        )
                    )
                finally:
                    executor.close()
                print(f"ray, {count} workers: {rows[-1]['calls_per_s']:.1f} calls/s", flush=True)
        finally:
            ray.shutdown()
    local = rows[0]["calls_per_s"]
    ideal = args.concurrency / args.latency
    print(
        f"\n{args.tasks} tasks x 2 calls, {args.latency:g} s per call, concurrency "
        f"{args.concurrency} (ideal {ideal:.0f} calls/s); Ray on {cpus} CPUs"
    )
    print("| executor | calls | wall | calls/s | vs local |")
    print("|---|---|---|---|---|")
    for row in rows:
        name = "local" if row["label"] == "local" else f"ray, {row['label'].split('-')[1]} workers"
        print(
            f"| {name} | {row['calls']:,} | {row['wall_s']:.1f} s | "
            f"{row['calls_per_s']:.1f} | {row['calls_per_s'] / local:.2f}x |"
        )


if __name__ == "__main__":
    main()

"""Runner throughput: this tree against a base commit, side by side, in one run.

    .venv/bin/python -m benchmarks runner_bench [--tasks 1520] [--zero-tasks 760]
        [--concurrency 32] [--latency 0.2] [--base 91200a7 | --base-dir DIR] [--rounds 2]
        [--no-base] [--profile FILE]

The script starts an OpenAI-compatible server on 127.0.0.1 in a process of its own
(benchmarks/chat_server.py, plain asyncio: every agent request is answered first with a
``calculate`` tool call, then with an answer, so each task makes exactly two model calls), and
extracts the base commit with ``git archive`` into a temporary folder (this checkout is not
touched). Each measurement is a fresh child process running ``arena.runner.run_suite`` of one
tree (PYTHONPATH points at it) on a fresh SQLite database, so nothing is cached: a react
variant on copies of the shipped golden cases. The child first runs a 64-task warm-up on a
database of its own (imports and first-use set-up are not throughput); the measured run still
builds its own models, clients and agents, as every run does. The server must have answered
exactly the calls the runs report. Base and this tree alternate, ``--rounds`` times, and the
best round of each is reported:

- zero latency: calls per second, and the runner process's CPU time per call (steadier than
  wall time on a shared machine); target at least 3x the base;
- ``--latency`` s per call at ``--concurrency``: wall time against the ideal
  calls x latency / concurrency (target within 1.2x).

The server's own capacity (a bare asyncio client at the same concurrency) is printed first,
to show it is not the bottleneck. ``--profile FILE`` writes a cProfile of this tree's
zero-latency run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, module_command, suite_only, timer

# -- worker: one run of one tree (runs in a child process) ------------------------------------


def worker(args: argparse.Namespace) -> None:
    """Run the suite once with the tree on PYTHONPATH; print one JSON line of figures."""
    import arena
    from arena.golden import load_dataset
    from arena.runner import RunOptions, run_suite
    from arena.storage import Store
    from arena.variants.variant import Variant

    tree = Path(args.worker).resolve()
    if not Path(arena.__file__).resolve().is_relative_to(tree):
        raise SystemExit(f"arena was imported from {arena.__file__}, not from {tree}")
    shipped = load_dataset(tree / "data" / "golden" / "research_agent.json")

    def dataset(count: int, tag: str) -> Any:
        base = shipped.test_cases
        cases = [
            base[i % len(base)].model_copy(
                update={
                    "id": f"{tag}-{i:05d}",
                    "input": f"{base[i % len(base)].input} ({tag} #{i})",
                }
            )
            for i in range(count)
        ]
        return shipped.model_copy(update={"test_cases": cases})

    variant = Variant.model_validate(
        {
            "name": "bench",
            "agent": "react",
            "system_prompt": "You are a research assistant.",
            "model": {"spec": "openai:bench", "base_url": args.base_url, "timeout": 30},
        }
    )
    options = RunOptions(concurrency=args.concurrency, progress=False)
    db = Path(args.db).resolve()
    # Warm-up on a database of its own: imports and first-use initialisation are paid here,
    # so the measured run shows the runner's steady state (its own models, agents and
    # clients are still built inside the measured run, as every run builds them).
    warm = run_suite(
        Store(f"sqlite:///{db.with_suffix('.warm.db')}"),
        dataset(min(64, args.tasks), "warm"),
        [variant],
        options,
    )
    store = Store(f"sqlite:///{db}")
    measured = dataset(args.tasks, "bench")
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    with timer() as took:
        report = run_suite(store, measured, [variant], options)
    wall, cpu = took.wall, took.cpu
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    errors = [r.error for r in report.results if r.error]
    print(
        json.dumps(
            {
                "wall_s": wall,
                "cpu_s": cpu,
                "tasks": len(report.results),
                "calls": report.model_calls,
                "warm_calls": warm.model_calls,
                "errors": len(errors),
                "first_error": errors[0] if errors else None,
            }
        )
    )


# -- the server and its bare capacity ----------------------------------------------------------


def server_capacity(base_url: str, concurrency: int, requests: int) -> float:
    """Requests per second the server answers at ``concurrency`` keep-alive connections, to a
    bare asyncio client (no HTTP library, so the figure is the server's, not a client's)."""
    host, port = base_url.removeprefix("http://").split("/")[0].split(":")
    body = json.dumps(
        {"model": "probe", "messages": [{"role": "user", "content": "capacity probe"}]}
    ).encode()
    request = (
        f"POST /v1/chat/completions HTTP/1.1\r\nHost: {host}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body

    async def run() -> float:
        queue = iter(range(requests))

        async def loop() -> None:
            reader, writer = await asyncio.open_connection(host, int(port))
            for _ in queue:
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                await reader.readexactly(length)
            writer.close()

        with timer() as took:
            await asyncio.gather(*(loop() for _ in range(concurrency)))
        return requests / took.wall

    return asyncio.run(run())


def extract(commit: str, into: Path) -> Path:
    """The tree of ``commit`` (git archive), without touching this checkout."""
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def measure(
    tree: Path, base_url: str, tasks: int, concurrency: int, work: Path, profile: str | None = None
) -> dict[str, Any]:
    """One fresh child process running the suite of ``tree``."""
    work.mkdir(parents=True)
    with suite_only() as suite:  # this suite's worker on the tree's arena
        return _worker_result(tree, base_url, tasks, concurrency, work, profile, suite)


def _worker_result(
    tree: Path,
    base_url: str,
    tasks: int,
    concurrency: int,
    work: Path,
    profile: str | None,
    suite: Path,
) -> dict[str, Any]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(suite), str(tree)]),
        "ARENA_SANDBOX_DIR": str(work / "sandboxes"),
        "ARENA_RETRY_DELAY": "0",
        "OPENBLAS_NUM_THREADS": "1",
    }
    env.pop("ARENA_DB_URL", None)
    command = [
        *module_command("benchmarks.runner_bench"),
        "--worker",
        str(tree),
        "--base-url",
        base_url,
        "--tasks",
        str(tasks),
        "--concurrency",
        str(concurrency),
        "--db",
        str(work / "arena.db"),
    ]
    if profile:
        command += ["--profile", profile]
    done = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"worker for {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if result["errors"]:
        raise SystemExit(f"{tree}: {result['errors']} task errors, e.g. {result['first_error']}")
    if result["calls"] != 2 * tasks:
        raise SystemExit(f"{tree}: {result['calls']} model calls, expected {2 * tasks}")
    return result


# -- main ----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """Measure this tree (and a base tree) side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=1520, help="tasks of the latency run")
    parser.add_argument("--zero-tasks", type=int, default=760, help="tasks of the 0-latency run")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--base", default="91200a7", help="the commit measured as 'today'")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-base", action="store_true", help="measure this tree only")
    parser.add_argument(
        "--base-dir", type=Path, help="compare against this source tree instead of --base"
    )
    parser.add_argument("--profile", help="cProfile output of this tree's 0-latency run")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--base-url", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args)
        return
    from benchmarks.chat_server import ChatServerProcess

    with tempfile.TemporaryDirectory(prefix="runner-bench-") as tmp:
        work = Path(tmp)
        trees = {"this tree": ROOT}
        if args.base_dir:
            trees = {f"base {args.base_dir}": args.base_dir.resolve(), **trees}
        elif not args.no_base:
            trees = {f"base {args.base}": extract(args.base, work / "base"), **trees}
        print(
            f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs "
            "(other processes take CPU from the runner)",
            flush=True,
        )
        with ChatServerProcess() as server:
            capacity = server_capacity(server.base_url, args.concurrency, 3000)
        print(
            f"server alone (bare asyncio client, concurrency {args.concurrency}): "
            f"{capacity:,.0f} requests/s",
            flush=True,
        )
        scenarios = [
            ("zero latency", 0.0, args.zero_tasks),
            (f"{args.latency:g} s latency", args.latency, args.tasks),
        ]
        best: dict[tuple[str, str], dict[str, Any]] = {}
        for round_ in range(args.rounds):
            for scenario, latency, tasks in scenarios:
                for label, tree in trees.items():
                    profile = (
                        args.profile
                        if args.profile and round_ == 0 and latency == 0 and tree == ROOT
                        else None
                    )
                    with ChatServerProcess(delay_s=latency) as server:
                        run = measure(
                            tree,
                            server.base_url,
                            tasks,
                            args.concurrency,
                            work / f"run-{len(best)}-{round_}-{latency}-{tree.name}",
                            profile,
                        )
                        if server.requests() != run["calls"] + run["warm_calls"]:
                            raise SystemExit(
                                f"the server answered {server.requests()} "
                                f"requests, the run reports {run['calls']}"
                            )
                    print(
                        f"  round {round_ + 1}, {scenario}, {label}: {run['wall_s']:.2f} s "
                        f"for {run['calls']} calls, runner CPU "
                        f"{1000 * run['cpu_s'] / run['calls']:.2f} ms per call",
                        flush=True,
                    )
                    seen = best.get((scenario, label))
                    if seen is None or run["wall_s"] < seen["wall_s"]:
                        best[(scenario, label)] = run
        print(f"load average after: {os.getloadavg()[0]:.1f}", flush=True)
        report(best, trees, scenarios, args)


def report(
    best: dict[tuple[str, str], dict[str, Any]],
    trees: dict[str, Path],
    scenarios: list[tuple[str, float, int]],
    args: argparse.Namespace,
) -> None:
    """The side-by-side table."""
    labels = list(trees)
    print()
    print(
        f"| scenario (concurrency {args.concurrency}) | tasks | calls | "
        + " | ".join(labels)
        + " | "
        + ("speedup | " if len(labels) == 2 else "")
        + "target |"
    )
    print("|---|---|---|" + "---|" * len(labels) + ("---|" if len(labels) == 2 else "") + "---|")
    for scenario, latency, tasks in scenarios:
        runs = [best[(scenario, label)] for label in labels]
        calls = runs[0]["calls"]
        if latency == 0:
            cells = [
                f"{r['calls'] / r['wall_s']:,.0f} calls/s ({r['wall_s']:.2f} s; "
                f"CPU {1000 * r['cpu_s'] / r['calls']:.1f} ms/call)"
                for r in runs
            ]
            target = "at least 3x the base"
        else:
            ideal = calls * latency / args.concurrency
            cells = [f"{r['wall_s']:.1f} s = {r['wall_s'] / ideal:.2f}x ideal" for r in runs]
            target = f"within 1.2x of ideal {ideal:.1f} s"
        speedup = f"{runs[0]['wall_s'] / runs[1]['wall_s']:.1f}x | " if len(labels) == 2 else ""
        print(
            f"| {scenario} | {tasks:,} | {calls:,} | "
            + " | ".join(cells)
            + " | "
            + speedup
            + target
            + " |"
        )


if __name__ == "__main__":
    main()

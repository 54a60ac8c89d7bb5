"""Benchmark: ``arena ratings --battles`` end to end against FastChat's pipeline, and its memory.

Run:  python -m benchmarks ratings_e2e_bench [--battles N] [--models M] [--ref-rounds K]

1. Speed. A Chatbot-Arena-schema JSONL log (N battles among M models, 10% ties, question ids)
   is written once. **Ours** is the real CLI, ``python -m arena.cli ratings --battles FILE
   --json`` in a fresh process (start-up, imports, reading, Bradley-Terry, 1000-round query
   bootstrap, the table), timed on the wall clock. **FastChat** is a faithful
   reimplementation (see :mod:`ratings_fastchat`) of FastChat's way, timed in this process
   (so without its start-up): the log read with ``pandas.read_json(lines=True)``, then
   ``compute_mle_elo`` (the Chatbot Arena notebook's logistic regression over duplicated
   battle rows, as FastChat's ``elo_analysis.py`` ran it until September 2024) and its
   bootstrap, ``get_bootstrap_result`` (``battles.sample(frac=1.0, replace=True)`` and a refit
   per round). Its 1000 rounds are extrapolated from ``--ref-rounds`` timed rounds, and the
   output says so. FastChat's current code (a faster fit on unique matchups and a multinomial
   bootstrap over them, across a process pool) is timed in full beside it.
2. Memory. A log of ``--memory-battles`` battles **without** ``question_id`` (every battle its
   own bootstrap unit) is rated by the CLI under ``/usr/bin/time -v``; its peak resident set
   size is printed beside the 2 GiB budget.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from benchmarks import ratings_fastchat as fastchat
from benchmarks.common import ROOT, WINNERS, draw_battles, load_average, timer

BUDGET_GIB = 2.0


def write_log(path: Path, n: int, m: int, n_queries: int | None, seed: int) -> None:
    """Seeded battles from normal(0, 1) log-strengths, 10% ties, as JSONL."""
    rng = np.random.default_rng(seed)
    draw = draw_battles(rng, n, m)
    a, b, outcome = draw.model_a, draw.model_b, draw.winner()
    names = [f"model-{i:03d}" for i in range(m)]
    query = rng.integers(0, n_queries, n) if n_queries else None
    with path.open("w", encoding="utf-8") as fh:
        for first in range(0, n, 200_000):
            rows = range(first, min(n, first + 200_000))
            if query is None:
                lines = [
                    f'{{"model_a": "{names[a[i]]}", "model_b": "{names[b[i]]}", '
                    f'"winner": "{WINNERS[outcome[i]]}"}}\n'
                    for i in rows
                ]
            else:
                lines = [
                    f'{{"model_a": "{names[a[i]]}", "model_b": "{names[b[i]]}", '
                    f'"winner": "{WINNERS[outcome[i]]}", "question_id": "q{query[i]}"}}\n'
                    for i in rows
                ]
            fh.writelines(lines)


def run_cli(path: Path, *extra: str) -> tuple[float, float, list[dict[str, object]], float]:
    """Wall seconds, peak RSS (GiB), the JSON rows and the CPU seconds (user + system) of
    one ``arena ratings --battles`` run."""
    cmd = [sys.executable, "-m", "arena.cli", "ratings", "--battles", str(path), "--json", *extra]
    time_tool = shutil.which("time") or "/usr/bin/time"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with timer() as took:
        done = subprocess.run([time_tool, "-v", *cmd], capture_output=True, text=True, env=env)
    wall = took.wall
    if done.returncode != 0:
        raise SystemExit(f"arena ratings failed:\n{done.stderr[-2000:]}")
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if peak is None:
        raise SystemExit("no peak RSS from /usr/bin/time -v (apt-get install -y time)")
    cpu = sum(
        float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", done.stderr)
    )
    return wall, int(peak.group(1)) / 2**20, json.loads(done.stdout), cpu


def speed(args: argparse.Namespace, workdir: Path) -> None:
    path = workdir / "battles.jsonl"
    with timer() as took:
        write_log(path, args.battles, args.models, args.queries, args.seed)
    size = path.stat().st_size / 2**20
    print(
        f"== {args.battles:,} battles, {args.models} models, {args.queries:,} question ids, "
        f"1000 bootstrap rounds ({size:.0f} MiB JSONL, written in "
        f"{took.wall:.1f} s) =="
    )
    runs = [run_cli(path) for _ in range(args.repeats)]
    walls = [r[0] for r in runs]
    ours = {str(r["model"]): float(r["rating"]) for r in runs[-1][2]}  # type: ignore[arg-type]
    print(
        f"ours: arena ratings --battles (fresh process, wall)    {min(walls):8.2f} s  "
        f"(best of {len(walls)}: {', '.join(f'{w:.2f}' for w in walls)}; CPU "
        f"{min(r[3] for r in runs):.2f} s; peak RSS {runs[-1][1]:.2f} GiB)"
    )

    timed = fastchat.time_notebook_pipeline(path, args.ref_rounds, args.seed)
    t_ref = timed.read + timed.fit + timed.per_round * 1000
    print(
        f"FastChat compute_mle_elo: pandas read_json        {timed.read:8.2f} s\n"
        f"FastChat compute_mle_elo: one fit                 {timed.fit:8.2f} s\n"
        f"FastChat compute_mle_elo: read + fit + 1000 rounds {t_ref:8.1f} s  "
        f"(EXTRAPOLATED from {args.ref_rounds} timed rounds of {timed.per_round:.2f} s)"
    )
    print(f"speedup vs compute_mle_elo pipeline: {t_ref / min(walls):8.1f}x   (goal: >= 20x)")
    current = fastchat.time_current_pipeline(path, 1000, args.seed)
    t_cur = current.read + current.fit + current.per_round * 1000
    print(
        f"FastChat current (unique matchups, multinomial, {os.cpu_count()} processes): "
        f"{t_cur:.1f} s measured (read {current.read:.2f} s, fit {current.fit:.2f} s, "
        f"1000 rounds {current.per_round * 1000:.1f} s); speedup {t_cur / min(walls):.1f}x"
    )
    for label, ratings in (("compute_mle_elo", timed.ratings), ("current", current.ratings)):
        diff = max(abs(ours[k] - ratings[k]) for k in ours)
        print(f"point ratings: max |ours - FastChat {label}| = {diff:.3f} Elo")
    print(f"(under 5 s: {'yes' if min(walls) < 5.0 else 'NO'})\n")


def memory(args: argparse.Namespace, workdir: Path) -> None:
    for n in args.memory_battles:
        path = workdir / f"battles-noqid-{n}.jsonl"
        write_log(path, n, args.models, None, args.seed + 1)
        wall, peak, rows, cpu = run_cli(path)
        verdict = "within" if peak < BUDGET_GIB else "OVER"
        print(
            f"memory: {n:,} battles without question_id ({len(rows)} models): peak RSS "
            f"{peak:.2f} GiB ({verdict} the {BUDGET_GIB:.0f} GiB budget), {wall:.1f} s wall, "
            f"{cpu:.1f} s CPU"
        )
        path.unlink()


def main(argv: list[str] | None = None) -> None:
    """Run the speed and memory comparisons."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=1_000_000)
    parser.add_argument("--models", type=int, default=50)
    parser.add_argument("--queries", type=int, default=20_000)
    parser.add_argument("--ref-rounds", type=int, default=2, help="FastChat rounds to time")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of ours (best)")
    parser.add_argument("--memory-battles", type=int, nargs="*", default=[1_000_000, 5_000_000])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args(argv)
    print(f"machine: {os.cpu_count()} cores; load average {load_average():.1f} at start")
    with tempfile.TemporaryDirectory(prefix="ratings-e2e-") as tmp:
        if not args.skip_speed:
            speed(args, Path(tmp))
        memory(args, Path(tmp))
    print(f"load average {load_average():.1f} at the end")


if __name__ == "__main__":
    main()

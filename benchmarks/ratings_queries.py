"""The queries axis of ``ratings_bench.py``: many variants on few golden cases.

Run:  python -m benchmarks ratings_bench --queries-axis 50,500,5000,20000
          [--axis-models 1000] [--axis-battles 300000] [--cases-repeats 100x3] [--rounds R]
          [--old-tree DIR] [--markdown]

A prompt search or a model sweep rates hundreds to thousands of variants on the same 50-500
golden cases. For each query count the same seeded battles (``ratings_bench.simulate``:
normal(0, 1) strengths, 10% ties) are rated in a fresh process per method (so every peak
resident set size is that method's alone), with ``ratings_scale``'s runners:

- **ours**: ``bootstrap_bradley_terry`` (point fit and every round) on one thread per core,
  measured in full; **ours, 1 worker** the same on one thread (the same ratings, bit for bit);
- **main**: the code of another checkout (``--old-tree DIR``, e.g. a ``git worktree`` of
  main), the same call measured in full in the same run, so old and new share the load;
- **choix ilsr** and **FastChat** as in ``ratings_scale`` (fit, then timed rounds
  extrapolated).

``--cases-repeats CxR`` adds a log where every variant meets a random opponent ``R`` times
on each of ``C`` cases (``models * C * R`` battles, ``C`` queries). Per round: the time of
``rounds`` rounds less that of one round, divided by ``rounds - 1``; Newton steps per round:
Newton steps summed over the rounds (a round stops after its convergence test) divided by
the rounds. Every measurement records the 1-minute load average before and after it
(``os.getloadavg()``); ``--markdown`` also prints the table for docs/ratings-performance.md.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np

from arena.ratings import Battles, bootstrap_bradley_terry, bradley_terry

# private on purpose: the benchmark counts the Newton steps by wrapping the solver's inner
# solve, which no public name exposes (nor should)
from arena.ratings import _sparse_newton as sparse_newton
from benchmarks.common import peak_rss_gib, simulate_battles, suite_only, timer
from benchmarks.ratings_scale import (
    TINY_REG,
    centred,
    measure,
    run_choix,
    run_fastchat,
    with_tie_weight,
)

REFERENCES = ("choix ilsr", "FastChat")
OURS = ("ours", "ours, 1 worker", "main")


def cases_repeats(m: int, cases: int, repeats: int, seed: int) -> Battles:
    """Every variant against a random other variant ``repeats`` times on each case."""
    rng = np.random.default_rng(seed)
    strengths = rng.normal(0.0, 1.0, m)
    a = np.tile(np.arange(m), cases * repeats)
    b = (a + rng.integers(1, m, a.size)) % m
    outcome = (rng.random(a.size) < 1.0 / (1.0 + np.exp(strengths[b] - strengths[a]))).astype(float)
    outcome[rng.random(a.size) < 0.1] = 0.5
    query = np.repeat(np.arange(cases), m * repeats)
    return Battles(a, b, outcome, query, tuple(f"variant{i:04d}" for i in range(m)))


def battles_for(spec: dict[str, Any]) -> Battles:
    if spec.get("repeats"):
        return cases_repeats(spec["models"], spec["queries"], spec["repeats"], spec["seed"])
    return simulate_battles(spec["battles"], spec["models"], spec["queries"], spec["seed"])


def run_bootstrap(battles: Battles, rounds: int, seed: int, workers: int | None) -> dict[str, Any]:
    """Ours (or main's code): time, Newton steps per round, peak RSS, the ratings."""
    import arena

    kwargs = {} if workers is None else {"workers": workers}
    steps, lock = [0], threading.Lock()
    solve = sparse_newton._solve

    def counted(*args: Any) -> Any:
        with lock:
            steps[0] += args[1].shape[1]  # one Newton step for each active round
        return solve(*args)

    sparse_newton._solve = counted  # type: ignore[assignment]
    with timer() as took:
        bootstrap_bradley_terry(battles, rounds=1, seed=seed, **kwargs)
    t_one = took.wall
    steps[0] = 0
    with timer() as took:
        fit = bootstrap_bradley_terry(battles, rounds=rounds, seed=seed, **kwargs)
    wall, cpu = took.wall, took.cpu
    return {
        "total": wall,
        "cpu": cpu,
        "per_round_ms": 1e3 * max(wall - t_one, 0.0) / max(rounds - 1, 1),
        "newton": steps[0] / rounds,  # the point fit's few steps included
        "rss": peak_rss_gib(),
        "rating": centred(fit.rating).tolist(),
        "samples": fit.samples[:50].tolist(),
        "code": str(Path(arena.__file__).resolve().parents[1]),
    }


def child(spec: dict[str, Any]) -> None:
    """Entry point of one measurement process: prints one JSON line."""
    load = os.getloadavg()[0]
    battles = battles_for(spec)
    method, rounds, seed = spec["method"], spec["rounds"], spec["seed"]
    if method in OURS:
        result = run_bootstrap(battles, rounds, seed, 1 if method == "ours, 1 worker" else None)
    elif method == "choix ilsr":
        result = run_choix(battles, rounds, seed, method)
    else:
        result = run_fastchat(battles, rounds, seed, spec["fastchat_rounds"])
    print(json.dumps({**result, "load": [load, os.getloadavg()[0]]}))


def _measure_method(spec: dict[str, Any], timeout: float, old_tree: str | None) -> Any:
    """One measurement process; "main" imports ``arena`` from ``old_tree``, the suite from here."""
    here = "benchmarks.ratings_queries"
    if spec["method"] != "main" or old_tree is None:
        return measure(spec, timeout, here)
    with suite_only() as folder:
        return measure(spec, timeout, here, folder, {**os.environ, "PYTHONPATH": old_tree})


def _ours_cell(got: dict[str, Any]) -> str:
    return (
        f"{got['total']:.1f} s / {got['cpu']:.1f} s CPU; {got['per_round_ms']:.1f} ms,"
        f" {got['newton']:.2f} steps, {got['rss']:.2f} GiB"
    )


def queries_axis(
    queries: list[int],
    models: int,
    n: int,
    rounds: int,
    seed: int,
    timeout: float,
    fastchat_rounds: int,
    cases: tuple[int, int] | None,
    old_tree: str | None = None,
    markdown: bool = False,
) -> None:
    """Print ours, main's code, choix and FastChat for every query count."""
    threads = os.environ.get("OPENBLAS_NUM_THREADS")
    print(f"== queries axis: {models:,} models, {rounds} bootstrap rounds ==")
    print(f"(each method in a fresh process; OPENBLAS_NUM_THREADS={threads}; wall clock;")
    print(" load = 1-minute load average before-after each measurement, os.getloadavg())")
    logs = [{"battles": n, "queries": q} for q in queries]
    if cases:
        logs.append(
            {"battles": models * cases[0] * cases[1], "queries": cases[0], "repeats": cases[1]}
        )
    here = "benchmarks.ratings_queries"
    methods = [m for m in OURS if m != "main" or old_tree]
    rows = []
    for log in logs:
        base = {**log, "models": models, "rounds": rounds, "seed": seed}
        label = f"{log['battles']:,} / {log['queries']:,}"
        if log.get("repeats"):
            label += f" ({log['queries']} cases x {log['repeats']} repeats)"
        print(f"\n-- battles / queries: {label} --")
        got_all: dict[str, dict[str, Any]] = {}
        for method in methods:
            spec = {**base, "method": method, "tree": old_tree if method == "main" else None}
            got = _measure_method(spec, max(timeout, 1800.0), old_tree)
            if isinstance(got, str):
                print(f"{method:15s} {got}")
                continue
            got_all[method] = got
            print(
                f"{method:15s} fit + {rounds} rounds {got['total']:7.2f} s (CPU {got['cpu']:.1f} s)"
                f" | per round {got['per_round_ms']:6.2f} ms | Newton steps per round"
                f" {got['newton']:.2f} | peak RSS {got['rss']:.2f} GiB"
                f" | load {got['load'][0]:.1f}-{got['load'][1]:.1f} | code {got['code']}"
            )
        row = {"label": label, **{k: _ours_cell(v) for k, v in got_all.items()}}
        loads = [x for v in got_all.values() for x in v["load"]]
        row["load"] = f"{min(loads):.1f}-{max(loads):.1f}" if loads else ""
        if "ours" in got_all and "ours, 1 worker" in got_all:
            same = got_all["ours"]["samples"] == got_all["ours, 1 worker"]["samples"]
            print(f"{'':15s} ours on 1 worker and on all: identical rounds: {same}")
        if "ours" in got_all and "main" in got_all:
            new, old = got_all["ours"], got_all["main"]
            diff = float(np.abs(np.array(new["samples"]) - old["samples"]).max())
            speed = old["total"] / new["total"]
            print(f"{'':15s} first 50 rounds: max |ours - main| {diff:.2e} Elo; {speed:.1f}x")
            row["vs"] = f"{speed:.1f}x; {diff:.1e} Elo"
        battles = battles_for(base)
        matched = {
            "choix ilsr": bradley_terry(with_tie_weight(battles, 2.0), reg=TINY_REG),
            "FastChat": bradley_terry(battles, reg=TINY_REG),
        }
        for name in REFERENCES:
            ref = measure(
                {**base, "method": name, "fastchat_rounds": fastchat_rounds}, timeout, here
            )
            if isinstance(ref, str):
                print(f"{name:15s} {ref}")
                row[name] = ref.split(" (")[0]
                continue
            diff = float(np.abs(centred(matched[name]) - np.array(ref["rating"])).max())
            conv = ""
            if ref.get("converged") is not None:
                conv_diff = float(np.abs(centred(matched[name]) - np.array(ref["converged"])).max())
                conv = f" (converged: {conv_diff:.2e})"
            per_round = 1e3 * (ref["total"] - ref["fit"]) / rounds
            print(
                f"{name:15s} fit {ref['fit']:6.2f} s | fit + {rounds} rounds {ref['total']:7.1f} s"
                f" (EXTRAPOLATED {ref.get('extrapolated', '')}) | per round {per_round:6.1f} ms"
                f" | peak RSS {ref['rss']:.2f} GiB | max |ours - ref| {diff:.2e} Elo{conv}"
                f" | load {ref['load'][0]:.1f}-{ref['load'][1]:.1f}"
            )
            row[name] = f"{ref['total']:,.0f} s (extrapolated); {diff:.1e} Elo{conv}"
        rows.append(row)
    if markdown:
        print_markdown(rows, methods, rounds)


def print_markdown(rows: list[dict[str, str]], methods: list[str], rounds: int) -> None:
    """The table of docs/ratings-performance.md (paste it over the old one)."""
    what = f"fit + {rounds} rounds (wall / CPU); per round, Newton steps, peak RSS"
    heads = [f"{m}: {what}" for m in methods]
    cols = ["battles / queries", "load average", *heads]
    keys = ["label", "load", *methods]
    if "main" in methods:
        cols.append("ours vs main: speedup; max round diff")
        keys.append("vs")
    cols += ["choix `ilsr_pairwise`", "FastChat current"]
    keys += list(REFERENCES)
    print("\n" + "| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for row in rows:
        print("| " + " | ".join(row.get(k, "") for k in keys) + " |")


if __name__ == "__main__":
    child(json.loads(sys.argv[1]))

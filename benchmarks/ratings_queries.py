"""The queries axis of ``ratings_bench.py``: many variants on few golden cases.

Run:  python benchmarks/ratings_bench.py --queries-axis 50,500,5000,20000
          [--axis-models 1000] [--axis-battles 300000] [--cases-repeats 100x3] [--rounds R]

A prompt search or a model sweep rates hundreds to thousands of variants on the same 50-500
golden cases. For each query count the same seeded battles (``ratings_bench.simulate``:
normal(0, 1) strengths, 10% ties) are rated in a fresh process per method (so every peak
resident set size is that method's alone), with ``ratings_scale``'s runners:

- **ours**: ``bootstrap_bradley_terry`` (point fit and every round), measured in full; each
  round starts from its first-order step computed per query (``arena.ratings._round_starts``);
- **old path**: the same code with those starts switched off (every round starts from the
  point fit, as before), measured in full in the same run;
- **choix ilsr** and **FastChat** as in ``ratings_scale`` (fit, then timed rounds
  extrapolated).

``--cases-repeats CxR`` adds a log where every variant meets a random opponent ``R`` times
on each of ``C`` cases (``models * C * R`` battles, ``C`` queries). Per round: the bootstrap's
time after the point fit divided by the rounds; Newton iterations per round: Newton steps
summed over rounds (a round stops after its convergence test) divided by the rounds.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from arena.ratings import Battles, bootstrap_bradley_terry, bradley_terry
from arena.ratings import _bootstrap as bootstrap_module
from arena.ratings import _sparse_newton as sparse_newton

REFERENCES = ("choix ilsr", "FastChat")


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
    from ratings_bench import simulate

    if spec.get("repeats"):
        return cases_repeats(spec["models"], spec["queries"], spec["repeats"], spec["seed"])
    return simulate(spec["battles"], spec["models"], spec["queries"], spec["seed"])


def run_bootstrap(battles: Battles, rounds: int, seed: int, old: bool) -> dict[str, Any]:
    """Ours (or the old path): time, Newton steps per round, peak RSS, the ratings."""
    from ratings_scale import centred, peak_rss_gib

    if old:
        bootstrap_module.DENSE_MAX_MODELS = 0
    steps = [0]
    solve = sparse_newton._solve

    def counted(*args: Any) -> Any:
        steps[0] += args[1].shape[1]  # one Newton step for each active round
        return solve(*args)

    sparse_newton._solve = counted  # type: ignore[assignment]
    t0 = time.perf_counter()
    bradley_terry(battles)
    t_fit = time.perf_counter() - t0
    steps[0] = 0
    t0, c0 = time.perf_counter(), time.process_time()
    fit = bootstrap_bradley_terry(battles, rounds=rounds, seed=seed)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {
        "fit": t_fit,
        "total": wall,
        "cpu": cpu,
        "per_round_ms": 1e3 * max(wall - t_fit, 0.0) / rounds,
        "newton": steps[0] / rounds,  # the point fit's few steps included
        "rss": peak_rss_gib(),
        "rating": centred(fit.rating).tolist(),
        "samples": fit.samples[:50].tolist(),
    }


def child(spec: dict[str, Any]) -> None:
    """Entry point of one measurement process: prints one JSON line."""
    from ratings_scale import run_choix, run_fastchat

    battles = battles_for(spec)
    method, rounds, seed = spec["method"], spec["rounds"], spec["seed"]
    if method in ("ours", "old path"):
        result = run_bootstrap(battles, rounds, seed, old=method == "old path")
    elif method == "choix ilsr":
        result = run_choix(battles, rounds, seed, method)
    else:
        result = run_fastchat(battles, rounds, seed, spec["fastchat_rounds"])
    print(json.dumps(result))


def queries_axis(
    queries: list[int],
    models: int,
    n: int,
    rounds: int,
    seed: int,
    timeout: float,
    fastchat_rounds: int,
    cases: tuple[int, int] | None,
) -> None:
    """Print ours, the old path, choix and FastChat for every query count."""
    from ratings_scale import TINY_REG, centred, measure, with_tie_weight

    threads = os.environ.get("OPENBLAS_NUM_THREADS")
    print(f"== queries axis: {models:,} models, {rounds} bootstrap rounds ==")
    print(f"(each method in a fresh process; OPENBLAS_NUM_THREADS={threads}; wall clock)")
    logs = [{"battles": n, "queries": q} for q in queries]
    if cases:
        logs.append(
            {"battles": models * cases[0] * cases[1], "queries": cases[0], "repeats": cases[1]}
        )
    script = str(Path(__file__).resolve())
    for log in logs:
        base = {**log, "models": models, "rounds": rounds, "seed": seed}
        label = f"{log['battles']:,} battles over {log['queries']:,} queries"
        print(f"\n-- {label}{' (every variant x case x repeat)' if log.get('repeats') else ''} --")
        ours: dict[str, Any] = {}
        for method in ("ours", "old path"):
            got = measure({**base, "method": method}, max(timeout, 1800.0), script)
            if isinstance(got, str):
                print(f"{method:10s} {got}")
                continue
            ours[method] = got
            print(
                f"{method:10s} fit {got['fit']:6.2f} s | fit + {rounds} rounds"
                f" {got['total']:7.2f} s"
                f" (CPU {got['cpu']:.1f} s) | per round {got['per_round_ms']:6.1f} ms | Newton"
                f" steps per round {got['newton']:.2f} | peak RSS {got['rss']:.2f} GiB"
            )
        if len(ours) == 2:
            rounds_diff = np.abs(np.array(ours["ours"]["samples"]) - ours["old path"]["samples"])
            print(f"{'':10s} first 50 rounds: max |ours - old path| {rounds_diff.max():.2e} Elo")
        battles = battles_for(base)
        matched = {
            "choix ilsr": bradley_terry(with_tie_weight(battles, 2.0), reg=TINY_REG),
            "FastChat": bradley_terry(battles, reg=TINY_REG),
        }
        for name in REFERENCES:
            ref = measure(
                {**base, "method": name, "fastchat_rounds": fastchat_rounds}, timeout, script
            )
            if isinstance(ref, str):
                print(f"{name:10s} {ref}")
                continue
            diff = float(np.abs(centred(matched[name]) - np.array(ref["rating"])).max())
            conv = ""
            if ref.get("converged") is not None:
                conv_diff = float(np.abs(centred(matched[name]) - np.array(ref["converged"])).max())
                conv = f" (converged: {conv_diff:.2e})"
            per_round = 1e3 * (ref["total"] - ref["fit"]) / rounds
            print(
                f"{name:10s} fit {ref['fit']:6.2f} s | fit + {rounds} rounds {ref['total']:7.1f} s"
                f" (EXTRAPOLATED {ref.get('extrapolated', '')}) | per round {per_round:6.1f} ms"
                f" | peak RSS {ref['rss']:.2f} GiB | max |ours - ref| {diff:.2e} Elo{conv}"
            )


if __name__ == "__main__":
    child(json.loads(sys.argv[1]))

"""The models axis of ``ratings_bench.py``: ours against choix and FastChat as models grow.

Run:  python -m benchmarks ratings_bench --models-axis 50,300,1000,3000,10000
                                         [--axis-battles N] [--rounds R] [--timeout S]

For each model count the same seeded battles (normal(0, 1) strengths, 10% ties, 20,000 query
ids) are rated by each method in a fresh process of its own (so each peak resident set size,
read from ``/proc/self/status``, is that method's alone, Python and the battles included):

- **ours**: ``bootstrap_bradley_terry`` (point fit and the 1000-round query bootstrap),
  measured in full;
- **choix ilsr**: ``choix.ilsr_pairwise`` (unpenalised; a tie as one win each way), one fit,
  then one bootstrap round (resampled queries, warm-started from the fit) to extrapolate the
  1000-round bootstrap;
- **choix opt**: ``choix.opt_pairwise`` (Newton-CG, ``alpha = reg / 2``, the same prior as
  ours), likewise;
- **FastChat**: FastChat's current pipeline (:mod:`ratings_fastchat`): the unique-matchup
  L-BFGS fit (unpenalised, ``maxiter=100``) and its multinomial bootstrap across a process
  pool of ``os.cpu_count()`` workers; a few rounds are timed and the rest extrapolated.

Each rating is compared with ours fitted to the same objective (the reference's tie handling
and penalty; a negligible 1e-9 prior for the unpenalised ones): the max |difference| in Elo
after centring both on 1000. A reference is skipped above the model count where its dense
(models x models) matrices or Python loops would blow the budget (the reason is printed), and
killed (with its process group) after ``--timeout`` seconds.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from arena.ratings import DEFAULT_REG, Battles, bootstrap_bradley_terry, bradley_terry
from benchmarks.common import (
    ROOT,
    children_peak_gib,
    module_command,
    peak_rss_gib,
    simulate_battles,
    timer,
)

ELO_PER_NAT = 400.0 / np.log(10.0)
QUERIES = 20_000
#: Tiny prior standing in for "unpenalised" when matching an unpenalised reference.
TINY_REG = 1e-9
#: Largest model count each reference is run at, and why not beyond.
CAPS: dict[str, tuple[int, str]] = {
    "choix ilsr": (
        3000,
        "builds and LU-factorises a dense models x models Markov chain every iteration",
    ),
    "choix opt": (
        300,
        "rebuilds a dense models x models Hessian by a Python loop over every battle "
        "at every Newton step",
    ),
    "FastChat": (10_000, ""),
}


#: choix opt_pairwise loops in Python over every battle for each objective, gradient and
#: Hessian: about 5 minutes per fit at 1M battles, so it only runs on logs up to this size.
OPT_MAX_BATTLES = 200_000
#: FastChat's objective is also minimised to convergence (to tell its maxiter=100 stopping
#: from a disagreement) up to this many models.
CONVERGED_MAX_MODELS = 300


def with_tie_weight(battles: Battles, weight: float) -> Battles:
    """The same battles with ties weighted ``weight`` (choix counts a tie as two results)."""
    w = np.where(battles.outcome == 0.5, weight, 1.0)
    return Battles(
        battles.model_a, battles.model_b, battles.outcome, battles.query, battles.models, weight=w
    )


def choix_data(battles: Battles, mult: np.ndarray | None = None) -> list[tuple[int, int]]:
    """(winner, loser) pairs; a tie as one win each way; queries repeated ``mult`` times."""
    a, b, o = battles.model_a, battles.model_b, battles.outcome
    reps = np.ones(len(battles), dtype=np.int64) if mult is None else mult[battles.query]
    win = np.concatenate([np.where(o == 0.0, b, a), b[o == 0.5]])
    lose = np.concatenate([np.where(o == 0.0, a, b), a[o == 0.5]])
    reps = np.concatenate([reps, reps[o == 0.5]])
    win, lose = np.repeat(win, reps), np.repeat(lose, reps)
    return list(zip(win.tolist(), lose.tolist(), strict=True))


def centred(elo: np.ndarray) -> np.ndarray:
    return np.asarray(elo - elo.mean() + 1000.0)


def run_ours(battles: Battles, rounds: int, seed: int) -> dict[str, Any]:
    with timer() as took:
        point = bradley_terry(battles)
    t_fit = took.wall
    with timer() as took:
        fit = bootstrap_bradley_terry(battles, rounds=rounds, seed=seed)
    wall, cpu = took.wall, took.cpu
    rss = peak_rss_gib()
    matched = {
        "choix ilsr": bradley_terry(with_tie_weight(battles, 2.0), reg=TINY_REG),
        "choix opt": bradley_terry(with_tie_weight(battles, 2.0)),
        "FastChat": bradley_terry(battles, reg=TINY_REG),
    }
    return {
        "fit": t_fit,
        "total": wall,
        "cpu": cpu,
        "rss": rss,
        "rating": centred(fit.rating).tolist(),
        "point_diff": float(np.abs(point - fit.rating).max()),
        "matched": {k: centred(v).tolist() for k, v in matched.items()},
    }


def run_choix(battles: Battles, rounds: int, seed: int, method: str) -> dict[str, Any]:
    import choix

    m = battles.n_models

    def fit(data: list[tuple[int, int]], start: np.ndarray | None) -> np.ndarray:
        if method == "choix ilsr":
            return np.asarray(choix.ilsr_pairwise(m, data, initial_params=start, max_iter=1000))
        return np.asarray(choix.opt_pairwise(m, data, alpha=DEFAULT_REG / 2, initial_params=start))

    with timer() as took:
        params = fit(choix_data(battles), None)
    t_fit = took.wall
    rng = np.random.default_rng(seed)
    n_q = int(battles.query.max()) + 1
    with timer() as took:
        fit(choix_data(battles, rng.multinomial(n_q, np.full(n_q, 1.0 / n_q))), params)
    t_round = took.wall
    elo = ELO_PER_NAT * params
    return {
        "fit": t_fit,
        "total": t_fit + rounds * t_round,
        "extrapolated": f"from 1 timed round of {t_round:.1f} s",
        "rss": peak_rss_gib(),
        "rating": centred(elo).tolist(),
    }


def run_fastchat(battles: Battles, rounds: int, seed: int, timed_rounds: int) -> dict[str, Any]:
    import pandas as pd

    from benchmarks import ratings_fastchat as fastchat

    names = np.asarray(battles.models)
    winner = np.where(
        battles.outcome == 1.0, "model_a", np.where(battles.outcome == 0.0, "model_b", "tie")
    )
    df = pd.DataFrame(
        {"model_a": names[battles.model_a], "model_b": names[battles.model_b], "winner": winner}
    )
    np.random.seed(seed)
    with timer() as took:
        point = fastchat.compute_elo_mle_with_tie(df)
    t_fit = took.wall
    k = min(rounds, timed_rounds)
    with timer() as took:
        fastchat.get_bootstrap_result_elo_mle_with_tie(df, k)
    t_boot = took.wall
    elo = np.array([point[name] for name in battles.models])
    converged = None
    if battles.n_models <= CONVERGED_MAX_MODELS:
        from scipy.optimize import minimize

        matchups, outcomes, weights, models = fastchat.preprocess_battles_to_arrays(df)
        res = minimize(
            fastchat.bt_loss_and_grad,
            np.zeros(len(models)),
            args=(matchups, outcomes, weights, np.log(10.0)),
            jac=True,
            method="L-BFGS-B",
            options={"maxiter": 100_000, "maxfun": 200_000, "gtol": 1e-9, "ftol": 1e-15},
        )
        by_name = dict(zip(models, 400.0 * res.x, strict=True))
        converged = centred(np.array([by_name[name] for name in battles.models])).tolist()
    out: dict[str, Any] = {
        "converged": converged,
        "fit": t_fit,
        "total": t_fit + t_boot * rounds / k,
        "rss": peak_rss_gib(),
        "workers_rss": children_peak_gib(),
        "rating": centred(elo).tolist(),
    }
    if k < rounds:
        out["extrapolated"] = f"from {k} timed rounds ({t_boot:.1f} s)"
    return out


def child(spec: dict[str, Any]) -> None:
    """Entry point of one measurement process: prints one JSON line."""
    battles = simulate_battles(spec["battles"], spec["models"], QUERIES, spec["seed"])
    method, rounds, seed = spec["method"], spec["rounds"], spec["seed"]
    if method == "ours":
        result = run_ours(battles, rounds, seed)
    elif method.startswith("choix"):
        result = run_choix(battles, rounds, seed, method)
    else:
        result = run_fastchat(battles, rounds, seed, spec["fastchat_rounds"])
    print(json.dumps(result))


def measure(
    spec: dict[str, Any],
    timeout: float,
    module: str = "benchmarks.ratings_scale",
    cwd: Path = ROOT,
    env: dict[str, str] | None = None,
) -> dict[str, Any] | str:
    """Run ``spec`` (by ``module``'s ``child``, default this module's) in a fresh process
    group; its JSON result, or why there is none."""
    proc = subprocess.Popen(
        module_command(module, json.dumps(spec)),
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return f"killed after {timeout:.0f} s (the --timeout cap)"
    if proc.returncode != 0:
        return f"failed (exit {proc.returncode}): {err.strip().splitlines()[-1:]}"
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def models_axis(
    sizes: list[int], n: int, rounds: int, seed: int, timeout: float, fastchat_rounds: int
) -> None:
    """Print the side-by-side table for every model count in ``sizes``."""
    threads = os.environ.get("OPENBLAS_NUM_THREADS")
    print(f"== models axis: {n:,} battles, {QUERIES:,} queries, {rounds} bootstrap rounds ==")
    print(f"(each method in a fresh process; OPENBLAS_NUM_THREADS={threads}; wall clock)")
    for m in sizes:
        base = {"battles": n, "models": m, "rounds": rounds, "seed": seed}
        print(f"\n-- {m:,} models --")
        ours = measure({**base, "method": "ours"}, max(timeout, 1800.0))
        if isinstance(ours, str):
            print(f"ours: {ours}")
            continue
        print(
            f"{'ours':12s} fit {ours['fit']:8.2f} s | fit + {rounds} rounds {ours['total']:8.2f} s"
            f" (CPU {ours['cpu']:.1f} s) | peak RSS {ours['rss']:.2f} GiB"
        )
        for name, (cap, why) in CAPS.items():
            if m > cap:
                print(f"{name:12s} skipped above {cap:,} models: it {why}")
                continue
            if name == "choix opt" and n > OPT_MAX_BATTLES:
                print(
                    f"{name:12s} skipped above {OPT_MAX_BATTLES:,} battles: a Python loop over "
                    "every battle per objective, gradient and Hessian (~5 min per fit at 1M)"
                )
                continue
            spec = {**base, "method": name, "fastchat_rounds": fastchat_rounds}
            ref = measure(spec, timeout)
            if isinstance(ref, str):
                print(f"{name:12s} {ref}")
                continue
            mine = np.array(ours["matched"][name])
            diff = float(np.abs(mine - np.array(ref["rating"])).max())
            note = f" (EXTRAPOLATED {ref['extrapolated']})" if "extrapolated" in ref else ""
            workers = f" + workers {ref['workers_rss']:.2f} GiB" if "workers_rss" in ref else ""
            print(
                f"{name:12s} fit {ref['fit']:8.2f} s | fit + {rounds} rounds {ref['total']:8.1f} s"
                f"{note} | peak RSS {ref['rss']:.2f} GiB{workers} | max |ours - ref| "
                f"{diff:.2e} Elo | speedup {ref['total'] / ours['total']:.1f}x"
            )
            if ref.get("converged") is not None:
                conv = float(np.abs(mine - np.array(ref["converged"])).max())
                print(
                    f"{'':12s} its objective minimised to convergence (not maxiter=100): "
                    f"max |ours - ref| {conv:.2e} Elo"
                )


if __name__ == "__main__":
    child(json.loads(sys.argv[1]))

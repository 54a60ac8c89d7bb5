"""Faithful reimplementations of FastChat's Bradley-Terry pipelines, for the benchmarks.

Written from FastChat's ``fastchat/serve/monitor/elo_analysis.py`` and the Chatbot Arena
notebook it cites; scikit-learn is not a dependency here, so ``LogisticRegression(
fit_intercept=False, penalty=None)`` is reproduced as scikit-learn solves it (the mean
log-loss minimised by scipy's L-BFGS-B with ``maxiter=max_iter`` (100), ``gtol=tol``,
``ftol=64 * eps``, ``maxls=50``).

- :func:`compute_mle_elo` + :func:`get_bootstrap_result`: the notebook's logistic regression
  over the battle rows duplicated (a tie as one win each way), refitted on
  ``battles.sample(frac=1.0, replace=True)`` in every bootstrap round. FastChat's
  ``elo_analysis.py`` ran this MLE (as ``compute_elo_mle_with_tie``) with this bootstrap
  until September 2024.
- :func:`compute_elo_mle_with_tie` + :func:`get_bootstrap_result_elo_mle_with_tie`: FastChat's
  current code: the battles collapsed to unique (model_a, model_b, outcome) rows, fitted by
  L-BFGS-B, the bootstrap a multinomial over those rows refitted across a process pool.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import os
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import expit


def _lr_loss_grad(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """scikit-learn's binomial loss (mean over samples) and its gradient, no penalty."""
    raw = x @ w
    loss = float(np.mean(np.logaddexp(0.0, raw) - y * raw))
    grad = x.T @ (expit(raw) - y) / x.shape[0]
    return loss, grad


def logistic_regression_coef(
    x: np.ndarray, y: np.ndarray, tol: float = 1e-6, max_iter: int = 100
) -> np.ndarray:
    """``LogisticRegression(fit_intercept=False, penalty=None, tol=tol).fit(x, y).coef_[0]``."""
    options = {
        "maxiter": max_iter,
        "maxls": 50,
        "gtol": tol,
        "ftol": 64 * np.finfo(float).eps,
    }
    res = minimize(
        _lr_loss_grad,
        np.zeros(x.shape[1]),
        args=(x, y),
        jac=True,
        method="L-BFGS-B",
        options=options,
    )
    return np.asarray(res.x)


def compute_mle_elo(
    df: pd.DataFrame, SCALE: float = 400, BASE: float = 10, INIT_RATING: float = 1000
) -> pd.Series:
    """The Chatbot Arena notebook's ``compute_mle_elo`` (duplicated rows, ties split)."""
    models = pd.concat([df["model_a"], df["model_b"]]).unique()
    models = pd.Series(np.arange(len(models)), index=models)
    # duplicate battles
    df = pd.concat([df, df], ignore_index=True)
    p = len(models.index)
    n = df.shape[0]
    X = np.zeros([n, p])
    X[np.arange(n), models[df["model_a"]]] = +math.log(BASE)
    X[np.arange(n), models[df["model_b"]]] = -math.log(BASE)
    # one A win => two A win
    Y = np.zeros(n)
    Y[df["winner"] == "model_a"] = 1.0
    # one tie => one A win + one B win
    tie_idx = (df["winner"] == "tie") | (df["winner"] == "tie (bothbad)")
    tie_idx[len(tie_idx) // 2 :] = False
    Y[tie_idx] = 1.0
    coef = logistic_regression_coef(X, Y, tol=1e-6)
    elo_scores = SCALE * coef + INIT_RATING
    if "mixtral-8x7b-instruct-v0.1" in models.index:
        elo_scores += 1114 - elo_scores[models["mixtral-8x7b-instruct-v0.1"]]
    return pd.Series(elo_scores, index=models.index).sort_values(ascending=False)


def get_bootstrap_result(battles: pd.DataFrame, func_compute_elo, num_round: int) -> pd.DataFrame:  # type: ignore[no-untyped-def]
    """FastChat's ``get_bootstrap_result``: resample battles, refit, every round."""
    rows = []
    for _ in range(num_round):
        rows.append(func_compute_elo(battles.sample(frac=1.0, replace=True)))
    df = pd.DataFrame(rows)
    return df[df.median().sort_values(ascending=False).index]


# --------------------------------------------------------------------- FastChat's current code


def preprocess_battles_to_arrays(df: pd.DataFrame):  # type: ignore[no-untyped-def]
    """convert the battles df into numpy arrays optimized for BT likelihood calculation"""
    models = pd.unique(df[["model_a", "model_b"]].values.ravel()).tolist()
    model_to_idx = {model: idx for idx, model in enumerate(models)}
    schedule = np.empty((len(df), 3), dtype=np.int32)
    schedule[:, [0, 1]] = df[["model_a", "model_b"]].map(lambda x: model_to_idx[x]).values
    schedule[:, 2] = np.select(
        condlist=[df["winner"] == "model_a", df["winner"] == "model_b"],
        choicelist=[2, 0],
        default=1,
    )
    matchups_outcomes, counts = np.unique(schedule, return_counts=True, axis=0)
    matchups = matchups_outcomes[:, [0, 1]]
    outcomes = matchups_outcomes[:, 2].astype(np.float64) / 2.0
    weights = counts.astype(np.float64)
    return matchups, outcomes, weights, models


def bt_loss_and_grad(ratings, matchups, outcomes, weights, alpha=1.0):  # type: ignore[no-untyped-def]
    matchup_ratings = ratings[matchups]
    logits = alpha * (matchup_ratings[:, 0] - matchup_ratings[:, 1])
    probs = expit(logits)
    loss = -((np.log(probs) * outcomes + np.log(1.0 - probs) * (1.0 - outcomes)) * weights).sum()
    matchups_grads = -alpha * (outcomes - probs) * weights
    model_grad = np.zeros_like(ratings)
    np.add.at(
        model_grad,
        matchups[:, [0, 1]],
        matchups_grads[:, None] * np.array([1.0, -1.0], dtype=np.float64),
    )
    return loss, model_grad


def fit_bt(matchups, outcomes, weights, n_models, alpha, tol=1e-6):  # type: ignore[no-untyped-def]
    initial_ratings = np.zeros(n_models, dtype=np.float64)
    result = minimize(
        fun=bt_loss_and_grad,
        x0=initial_ratings,
        args=(matchups, outcomes, weights, alpha),
        jac=True,
        method="L-BFGS-B",
        options={"disp": False, "maxiter": 100, "gtol": tol},
    )
    return result["x"]


def scale_and_offset(ratings, models, scale=400, init_rating=1000):  # type: ignore[no-untyped-def]
    return (ratings * scale) + init_rating  # no "mixtral-8x7b-instruct-v0.1" baseline here


def compute_elo_mle_with_tie(df: pd.DataFrame, SCALE=400, BASE=10, INIT_RATING=1000):  # type: ignore[no-untyped-def]
    matchups, outcomes, weights, models = preprocess_battles_to_arrays(df)
    ratings = fit_bt(matchups, outcomes, weights, len(models), np.log(BASE))
    scaled = scale_and_offset(ratings, models, SCALE, INIT_RATING)
    return pd.Series(scaled, index=models).sort_values(ascending=False)


def get_bootstrap_result_elo_mle_with_tie(
    df, num_round, BASE=10.0, SCALE=400.0, INIT_RATING=1000.0
):  # type: ignore[no-untyped-def]
    matchups, outcomes, weights, models = preprocess_battles_to_arrays(df)
    idxs = np.random.multinomial(n=len(df), pvals=weights / weights.sum(), size=(num_round))
    boot_weights = idxs.astype(np.float64) / len(df)
    bt_fn = partial(fit_bt, matchups, outcomes, n_models=len(models), alpha=np.log(BASE))
    with mp.Pool(os.cpu_count()) as pool:
        results = pool.map(bt_fn, boot_weights)
    ratings = np.array(results)
    scaled = scale_and_offset(ratings, models, SCALE, INIT_RATING)
    out = pd.DataFrame(scaled, columns=models)
    return out[out.median().sort_values(ascending=False).index]


# ------------------------------------------------------------------------------- timing


@dataclass
class Timed:
    """Seconds to read, to fit once, and per bootstrap round; the point ratings."""

    read: float
    fit: float
    per_round: float
    ratings: dict[str, float]


def time_notebook_pipeline(path: Path, rounds: int, seed: int) -> Timed:
    """``pd.read_json`` + ``compute_mle_elo`` + ``rounds`` rounds of its bootstrap."""
    np.random.seed(seed)
    t0 = time.perf_counter()
    battles = pd.read_json(path, lines=True)
    t1 = time.perf_counter()
    point = compute_mle_elo(battles)
    t2 = time.perf_counter()
    get_bootstrap_result(battles, compute_mle_elo, rounds)
    t3 = time.perf_counter()
    return Timed(t1 - t0, t2 - t1, (t3 - t2) / rounds, {str(k): float(v) for k, v in point.items()})


def time_current_pipeline(path: Path, rounds: int, seed: int) -> Timed:
    """``pd.read_json`` + FastChat's current fit + its pooled multinomial bootstrap."""
    np.random.seed(seed)
    t0 = time.perf_counter()
    battles = pd.read_json(path, lines=True)
    t1 = time.perf_counter()
    point = compute_elo_mle_with_tie(battles)
    t2 = time.perf_counter()
    get_bootstrap_result_elo_mle_with_tie(battles, rounds)
    t3 = time.perf_counter()
    return Timed(t1 - t0, t2 - t1, (t3 - t2) / rounds, {str(k): float(v) for k, v in point.items()})

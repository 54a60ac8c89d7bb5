"""The arena leaderboard: pairwise ratings beside absolute golden scores and benchmarks."""

from __future__ import annotations

import math

from pydantic import BaseModel

from arena.evaluate import load_run_scores
from arena.judging.ratings_io import DEFAULT_REG, battles_to_arrays, rating_rows
from arena.judging.records import Battle
from arena.storage import Store


class LeaderboardEntry(BaseModel):
    """One variant: rating with its 95% interval, Elo, battles, golden scores, benchmarks."""

    rank: int | None
    variant: str
    version: str
    description: str = ""
    rating: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    elo: float | None = None
    win_rate: float | None = None
    wins: int = 0
    losses: int = 0
    ties: int = 0
    battles: int = 0
    pass_rate: float | None = None
    critical_pass_rate: float | None = None
    mean_score: float | None = None
    cost_per_query: float | None = None
    p90_latency_s: float | None = None
    error_rate: float | None = None


class ArenaLeaderboard(BaseModel):
    """A run's leaderboard for one judge, with its win-rate and battle-count matrices."""

    run_id: int
    judge: str | None
    judge_key: str | None
    grader: str
    bootstrap: int
    style_control: bool
    entries: list[LeaderboardEntry]
    models: list[str]
    win_rate_matrix: list[list[float | None]]
    predicted_win_matrix: list[list[float | None]]
    battle_counts: list[list[int]]


def _opt(value: float) -> float | None:
    return None if math.isnan(value) else value


def select_battles(store: Store, run_id: int, judge_key: str | None) -> list[Battle]:
    """The run's battles from one judge (default: the judge used most recently)."""
    keys = store.judge_keys(run_id)
    if not keys:
        return []
    key = judge_key or keys[0][0]
    known = [k for k, _, _ in keys]
    if key not in known:
        from arena.errors import InputError

        raise InputError(f"judge {key!r} has no battles on run {run_id} (judges: "
                         f"{', '.join(known)})", field="judge")
    return store.battles(run_id, key)


def build_leaderboard(store: Store, run_id: int | None = None, *, judge_key: str | None = None,
                      bootstrap: int = 1000, seed: int = 0, style_control: bool = False,
                      reg: float = DEFAULT_REG) -> ArenaLeaderboard:
    """Ratings (if the run was judged) next to each variant's golden scores."""
    run = store.run(run_id)
    run_scores = load_run_scores(store, run.id)
    scores = {v.variant: v for v in run_scores.variants}
    described = {v.name: v.description for v in store.variants()}
    battles = select_battles(store, run.id, judge_key)
    rated, models, win, pred, counts = {}, [], [], [], []
    if any(b.winner != "error" for b in battles):
        rows, board = rating_rows(battles_to_arrays(battles), bootstrap=bootstrap, seed=seed,
                                  style_control=style_control, reg=reg)
        rated = {r.model: r for r in rows}
        models = list(board.models)
        win = [[_opt(float(x)) for x in row] for row in board.win_rate]
        pred = [[_opt(float(x)) for x in row] for row in board.predicted_win]
        counts = [[int(x) for x in row] for row in board.battle_counts]
    entries = []
    for name, version in run.config.get("variants", {}).items():
        r, s = rated.get(name), scores.get(name)
        entries.append(LeaderboardEntry(
            rank=r.rank if r else None, variant=name, version=version,
            description=described.get(name, ""),
            rating=r.rating if r else None, ci_low=r.ci_low if r else None,
            ci_high=r.ci_high if r else None, elo=_opt(r.elo) if r else None,
            win_rate=r.win_rate if r else None, wins=r.wins if r else 0,
            losses=r.losses if r else 0, ties=r.ties if r else 0,
            battles=r.battles if r else 0,
            pass_rate=s.pass_rate if s else None,
            critical_pass_rate=s.critical_pass_rate if s else None,
            mean_score=s.mean_score if s else None,
            cost_per_query=s.cost_mean_usd if s else None,
            p90_latency_s=s.latency_p90_s if s else None,
            error_rate=s.error_rate if s else None))
    entries.sort(key=lambda e: (e.rating is None, -(e.rating or 0.0), e.variant))
    judge = battles[0].judge if battles else None
    return ArenaLeaderboard(
        run_id=run.id, judge=judge.label if judge else None, judge_key=judge.key if judge else None,
        grader=run_scores.grader, bootstrap=bootstrap,
        style_control=style_control, entries=entries, models=models, win_rate_matrix=win,
        predicted_win_matrix=pred, battle_counts=counts)

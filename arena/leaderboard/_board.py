"""The arena leaderboard: pairwise ratings beside absolute golden scores and benchmarks."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from arena.ratings import Battles, RatingOptions, RatingTable
    from arena.scoring._aggregate import VariantScores
    from arena.storage import Store
    from judges._battle import Battle


class RatingFigures(BaseModel):
    """One row of a rating table: rating with its 95% interval (None without one), Elo,
    CI-aware rank and battle record; all None or 0 for an entry nothing rated."""

    rank: int | None = None
    rating: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    elo: float | None = None
    win_rate: float | None = None
    wins: int = 0
    losses: int = 0
    ties: int = 0
    battles: int = 0


class ModelRating(RatingFigures):
    """One rated model's figures (a rated model always has a rating and a rank)."""

    model: str
    rank: int
    rating: float


class StyleEffect(BaseModel):
    """A fitted style covariate (or the seat) in Elo points, with its 95% interval.

    For a count covariate, ``elo`` is the rating change per ``scale`` of the ratio
    ``(a - b) / (a + b + 1)``; for ``seat`` it is seat A's advantage.
    """

    name: str
    elo: float
    ci_low: float | None
    ci_high: float | None
    scale: float


class VariantStanding(RatingFigures):
    """One variant: its rating figures (if judged), golden scores and benchmarks.

    ``crashes`` counts the rated battles its answer crashed in (lost, or tied when both
    answers crashed): they are in ``battles`` and the rating like every other battle.
    """

    variant: str
    version: str
    description: str = ""
    pass_rate: float | None = None
    cases: int | None = Field(None, description="Counted golden cases behind pass_rate.")
    critical_pass_rate: float | None = None
    critical_cases: int | None = Field(
        None, description="Critical golden cases behind critical_pass_rate."
    )
    mean_score: float | None = None
    cost_per_query: float | None = None
    tokens_per_query: float | None = Field(
        None, description="Mean input plus output tokens of one answer."
    )
    p90_latency_s: float | None = None
    error_rate: float | None = None
    crashes: int = 0
    simulator_errors: int = Field(
        0, description="Results whose simulated user failed: not agent failures, not in pass_rate."
    )


class RunLeaderboard(BaseModel):
    """A run's leaderboard for one judge, with its win-rate and battle-count matrices."""

    run_id: int
    judge: str | None
    judge_key: str | None
    grader: str
    method: str
    bootstrap: int
    style_control: bool
    style: list[str]
    effects: list[StyleEffect]
    entries: list[VariantStanding]
    models: list[str]
    win_rate_matrix: list[list[float | None]]
    predicted_win_matrix: list[list[float | None]]
    battle_counts: list[list[int]]


def _opt(value: float) -> float | None:
    return None if math.isnan(value) else float(value)


def rate_battles(battles: Battles, options: RatingOptions | None = None) -> RatingTable:
    """:func:`arena.ratings.rating_table`, with unusable style covariates as bad input.

    Raises:
        RatingOptionError: (field ``anchor``) for an anchor without battles, (field
            ``style``) when the battles lack a covariate's counts or the seat effect is not
            identifiable.
    """
    from arena.ratings import RatingOptionError, RatingOptions, rating_table, style_problem

    opts = options if options is not None else RatingOptions()
    if opts.anchor is not None and opts.anchor not in battles.models:
        known = ", ".join(battles.models)
        raise RatingOptionError("anchor", f"unknown model {opts.anchor!r} (models: {known})")
    problem = style_problem(battles, opts.style)
    if problem:
        raise RatingOptionError("style", problem)
    return rating_table(battles, opts)


def model_ratings(table: RatingTable) -> list[ModelRating]:
    """One row per model, in rating order."""
    rows = []
    for i, name in enumerate(table.models):
        n = int(table.battles[i])
        wins, ties = int(table.wins[i]), int(table.ties[i])
        rows.append(
            ModelRating(
                model=name,
                rating=float(table.rating[i]),
                ci_low=_opt(table.ci_low[i]),
                ci_high=_opt(table.ci_high[i]),
                elo=_opt(table.elo[i]),
                rank=int(table.rank[i]),
                wins=wins,
                losses=int(table.losses[i]),
                ties=ties,
                battles=n,
                win_rate=(wins + 0.5 * ties) / n if n else None,
            )
        )
    return rows


def style_effects(table: RatingTable) -> list[StyleEffect]:
    """The table's fitted covariates as records."""
    return [
        StyleEffect(
            name=e.name, elo=e.elo, ci_low=_opt(e.ci_low), ci_high=_opt(e.ci_high), scale=e.scale
        )
        for e in table.effects
    ]


def crash_counts(battles: list[Battle]) -> dict[str, int]:
    """Variant -> the battles its answer crashed in (crash battles decided against it, or
    tied because both answers crashed)."""
    counts: dict[str, int] = {}
    for battle in battles:
        if battle.crashed in ("a", "both"):
            counts[battle.variant_a] = counts.get(battle.variant_a, 0) + 1
        if battle.crashed in ("b", "both"):
            counts[battle.variant_b] = counts.get(battle.variant_b, 0) + 1
    return counts


def build_leaderboard(
    store: Store,
    run_id: int | None = None,
    *,
    judge_key: str | None = None,
    options: RatingOptions | None = None,
) -> RunLeaderboard:
    """Ratings (if the run was judged) next to each variant's golden scores."""
    from arena.evaluation.run_scores import load_run_scores
    from arena.leaderboard._rating_inputs import (
        battles_to_arrays,
        rated,
        run_outputs,
        select_battles,
    )
    from arena.ratings import LENGTH, SEAT, RatingOptions

    opts = options if options is not None else RatingOptions()
    run = store.run(run_id)
    run_scores = load_run_scores(store, run.id)
    scores = {v.variant: v for v in run_scores.variants}
    described = {v.name: v.description for v in store.variants()}
    battles = select_battles(store, run.id, judge_key)
    ratings: dict[str, ModelRating] = {}
    models, win, pred, counts, effects = [], [], [], [], []
    if rated(battles):
        needs_text = any(name not in (LENGTH, SEAT) for name in opts.style)
        outputs = run_outputs(store, run.id) if needs_text else None
        table = rate_battles(battles_to_arrays(battles, outputs), opts)
        ratings = {r.model: r for r in model_ratings(table)}
        models = list(table.models)
        win = [[_opt(float(x)) for x in row] for row in table.win_rate]
        pred = [[_opt(float(x)) for x in row] for row in table.predicted_win]
        counts = [[int(x) for x in row] for row in table.battle_counts]
        effects = style_effects(table)
    crashed = crash_counts(rated(battles))
    entries = [
        _standing(name, version, ratings.get(name), scores.get(name), described.get(name, ""))
        for name, version in run.config.get("variants", {}).items()
    ]
    for entry in entries:
        entry.crashes = crashed.get(entry.variant, 0)
    entries.sort(key=lambda e: (e.rating is None, -(e.rating or 0.0), e.variant))
    judge = battles[0].judge if battles else None
    return RunLeaderboard(
        run_id=run.id,
        judge=judge.label if judge else None,
        judge_key=judge.key if judge else None,
        grader=run_scores.grader,
        method=opts.method_name,
        bootstrap=opts.bootstrap_rounds,
        style_control=bool(opts.style),
        style=list(opts.style),
        effects=effects,
        entries=entries,
        models=models,
        win_rate_matrix=win,
        predicted_win_matrix=pred,
        battle_counts=counts,
    )


def _standing(
    name: str, version: str, r: ModelRating | None, s: VariantScores | None, description: str
) -> VariantStanding:
    rating = r.model_dump(exclude={"model"}) if r else {"rank": None}
    golden: dict[str, float | int | None] = {}
    if s is not None:
        critical = s.figures("critical")
        golden = {
            "pass_rate": s.pass_rate,
            "cases": s.n_counted_cases,
            "critical_pass_rate": s.critical_pass_rate,
            "critical_cases": critical.n_cases if critical is not None else None,
            "tokens_per_query": s.input_tokens_mean + s.output_tokens_mean,
            "mean_score": s.mean_score,
            "cost_per_query": s.cost_mean_usd,
            "p90_latency_s": s.latency_p90_s,
            "error_rate": s.error_rate,
            "simulator_errors": s.simulator_errors,
        }
    return VariantStanding(
        variant=name, version=version, description=description, **rating, **golden
    )

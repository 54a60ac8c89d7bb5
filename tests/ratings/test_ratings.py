"""Unit tests of arena.ratings: battles, Elo, Bradley-Terry vs references, bootstrap, tables."""

from __future__ import annotations

import choix
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize

from arena.ratings import (
    Battles,
    aggregate_pairs,
    battle_count_matrix,
    bootstrap_bradley_terry,
    bootstrap_win_rate,
    bradley_terry,
    ci_aware_rank,
    elo_median_over_orderings,
    model_stats,
    online_elo,
    predicted_win_matrix,
    rating_table,
    win_rate_matrix,
)
from arena.ratings._options import RatingOptionError, RatingOptions

pytestmark = pytest.mark.unit

ELO_PER_NAT = 400.0 / np.log(10.0)


def simulate(
    strengths: np.ndarray,
    n: int,
    seed: int,
    *,
    tie_prob: float = 0.0,
    n_queries: int | None = None,
) -> Battles:
    """Battles from BT log-strengths; a fraction of decisive outcomes become ties."""
    rng = np.random.default_rng(seed)
    m = len(strengths)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    p = 1.0 / (1.0 + np.exp(-(strengths[a] - strengths[b])))
    outcome = (rng.random(n) < p).astype(float)
    outcome[rng.random(n) < tie_prob] = 0.5
    query = np.arange(n) if n_queries is None else rng.integers(0, n_queries, n)
    return Battles(a, b, outcome, query, tuple(f"m{i}" for i in range(m)))


# --------------------------------------------------------------------------- battles


def test_from_records_maps_names_outcomes_and_queries() -> None:
    battles = Battles.from_records(
        ["b", "a", "c", "a"],
        ["a", "c", "b", "b"],
        ["model_a", "tie", "model_b", "tie (bothbad)"],
        ["q2", "q1", "q2", "q3"],
    )
    assert battles.models == ("a", "b", "c")
    assert battles.model_a.tolist() == [1, 0, 2, 0]
    assert battles.model_b.tolist() == [0, 2, 1, 1]
    assert battles.outcome.tolist() == [1.0, 0.5, 0.0, 0.5]
    assert battles.query.tolist() == [1, 0, 1, 2]
    assert battles.weight.tolist() == [1.0] * 4
    assert len(battles) == 4
    assert not battles.outcome.flags.writeable


def test_from_records_without_queries_each_battle_is_its_own_query() -> None:
    battles = Battles.from_records(["a", "a", "b"], ["b", "b", "a"], ["model_a"] * 3)
    assert battles.query.tolist() == [0, 1, 2]


def test_from_records_explicit_models_and_weights() -> None:
    battles = Battles.from_records(["x"], ["y"], ["model_b"], models=["z", "y", "x"], weight=[2.5])
    assert battles.models == ("z", "y", "x")
    assert (battles.model_a[0], battles.model_b[0]) == (2, 1)
    assert battles.weight.tolist() == [2.5]


@pytest.mark.parametrize(
    ("a", "b", "winner", "match"),
    [
        (["a", "a", "a"], ["b", "b", "c"], ["model_a", "tie", "draw"], "row 2: unknown winner"),
        (["a", "b"], ["b", "b"], ["model_a", "tie"], "row 1: self-battle of model 'b'"),
        (["a", "b"], ["b"], ["tie", "tie"], "model_b has 1 entries"),
    ],
)
def test_from_records_validation(a: list[str], b: list[str], winner: list[str], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        Battles.from_records(a, b, winner)


def test_from_records_unknown_model_and_query_length() -> None:
    with pytest.raises(ValueError, match="row 0: model 'q' not in models"):
        Battles.from_records(["q"], ["x"], ["tie"], models=["x", "y"])
    with pytest.raises(ValueError, match="query has 2 entries"):
        Battles.from_records(["a"], ["b"], ["tie"], ["q1", "q2"])


def test_battles_validation() -> None:
    models = ("a", "b")
    with pytest.raises(ValueError, match="row 1: outcome"):
        Battles([0, 0], [1, 1], [1.0, 1.5], [0, 1], models)
    with pytest.raises(ValueError, match="row 0: model_b index out of range"):
        Battles([0], [2], [1.0], [0], models)
    with pytest.raises(ValueError, match="row 0: self-battle"):
        Battles([1], [1], [1.0], [0], models)
    with pytest.raises(ValueError, match="row 0: weight"):
        Battles([0], [1], [1.0], [0], models, weight=np.array([-1.0]))
    with pytest.raises(ValueError, match="together"):
        Battles([0], [1], [1.0], [0], models, len_a=np.array([3.0]))


def test_aggregate_pairs_counts_ties_as_half_wins() -> None:
    battles = Battles(
        [1, 0, 0, 2], [0, 1, 2, 0], [1.0, 0.5, 0.0, 1.0], [0, 1, 2, 3], ("a", "b", "c")
    )
    counts = aggregate_pairs(battles)
    assert counts.lo.tolist() == [0, 0] and counts.hi.tolist() == [1, 2]
    assert counts.wins_lo.tolist() == [0.5, 0.0]
    assert counts.total.tolist() == [2.0, 2.0]


# --------------------------------------------------------------------------- Elo


def test_online_elo_single_battle_and_tie() -> None:
    win = Battles([0], [1], [1.0], [0], ("a", "b"))
    assert online_elo(win).tolist() == [1002.0, 998.0]
    tie = Battles([0], [1], [0.5], [0], ("a", "b"))
    assert online_elo(tie).tolist() == [1000.0, 1000.0]
    heavy = Battles([0], [1], [1.0], [0], ("a", "b"), weight=np.array([2.0]))
    assert online_elo(heavy).tolist() == [1004.0, 996.0]


def test_online_elo_three_battle_sequence_by_hand() -> None:
    # a beats b, then b ties c, then c beats a; K=4, base 10, scale 400, start 1000.
    battles = Battles([0, 1, 2], [1, 2, 0], [1.0, 0.5, 1.0], [0, 1, 2], ("a", "b", "c"))
    # 1) equal ratings: expected 0.5, a +2, b -2 -> a 1002, b 998, c 1000
    # 2) b (998) vs c (1000): E_b = 1 / (1 + 10^(2/400)) = 0.4971218004...
    #    delta = 4 * (0.5 - E_b) = 0.0115127983 -> b 998.0115127983, c 999.9884872017
    # 3) c (999.9884872017) vs a (1002): E_c = 1 / (1 + 10^(2.0115127983/400)) = 0.4971052327
    #    delta = 4 * (1 - E_c) = 2.0115790691 -> c 1002.0000662708, a 999.9884209309
    expected = [999.9884209309151, 998.0115127982992, 1002.0000662707856]
    np.testing.assert_allclose(online_elo(battles), expected, rtol=0, atol=1e-9)


def test_elo_median_is_order_independent() -> None:
    battles = simulate(np.array([0.0, 0.5, 1.0, 1.5]), 400, seed=1, tie_prob=0.2)
    perm = np.random.default_rng(7).permutation(len(battles))
    first = elo_median_over_orderings(battles, rounds=40, seed=3)
    second = elo_median_over_orderings(battles.select(perm), rounds=40, seed=3)
    np.testing.assert_array_equal(first, second)
    assert np.argsort(first).tolist() == [0, 1, 2, 3]
    # the same holds through from_records with shuffled rows (names are sorted)
    names = np.array(battles.models)
    winners = np.array(["model_b", "tie", "model_a"])[(battles.outcome * 2).astype(int)]
    cols = (names[battles.model_a], names[battles.model_b], winners)
    again = Battles.from_records(*(list(c[perm]) for c in cols))
    np.testing.assert_array_equal(elo_median_over_orderings(again, rounds=40, seed=3), first)


def test_elo_median_seeded_and_validated() -> None:
    battles = simulate(np.array([0.0, 1.0, 2.0]), 200, seed=2)
    one = elo_median_over_orderings(battles, rounds=10, seed=0)
    np.testing.assert_array_equal(one, elo_median_over_orderings(battles, rounds=10, seed=0))
    assert not np.array_equal(one, elo_median_over_orderings(battles, rounds=10, seed=1))
    with pytest.raises(ValueError):
        elo_median_over_orderings(battles, rounds=0)


# --------------------------------------------------------------------------- Bradley-Terry


def test_bt_matches_choix_without_ties() -> None:
    strengths = np.array([-1.0, -0.3, 0.0, 0.4, 1.2])
    battles = simulate(strengths, 1500, seed=3)
    reg = 1e-2
    ours = bradley_terry(battles, reg=reg)
    data = [
        (int(a), int(b)) if o == 1.0 else (int(b), int(a))
        for a, b, o in zip(battles.model_a, battles.model_b, battles.outcome, strict=True)
    ]
    # choix penalises alpha * ||theta||^2; ours is reg / 2 * ||s||^2.
    ref = choix.opt_pairwise(len(strengths), data, alpha=reg / 2, tol=1e-12)
    np.testing.assert_allclose(ours, ELO_PER_NAT * (ref - ref.mean()) + 1000.0, atol=1e-3)


def test_bt_with_ties_matches_choix_with_split_ties() -> None:
    # choix has no ties: a tie becomes one win each way, i.e. our half-win with weight 2.
    battles = simulate(np.array([0.0, 0.6, 1.1, -0.4]), 1000, seed=4, tie_prob=0.3)
    reg = 1e-3
    tie = battles.outcome == 0.5
    weighted = Battles(
        battles.model_a,
        battles.model_b,
        battles.outcome,
        battles.query,
        battles.models,
        weight=np.where(tie, 2.0, 1.0),
    )
    data: list[tuple[int, int]] = []
    for a, b, o in zip(battles.model_a, battles.model_b, battles.outcome, strict=True):
        if o == 0.5:
            data += [(int(a), int(b)), (int(b), int(a))]
        else:
            data.append((int(a), int(b)) if o == 1.0 else (int(b), int(a)))
    ref = choix.opt_pairwise(4, data, alpha=reg / 2, tol=1e-12)
    expected = ELO_PER_NAT * (ref - ref.mean()) + 1000.0
    np.testing.assert_allclose(bradley_terry(weighted, reg=reg), expected, atol=1e-3)


def raw_logistic_regression(battles: Battles, reg: float) -> np.ndarray:
    """Independent reference: logistic regression over raw battle rows (ties: two half rows)."""
    m = battles.n_models
    x = np.zeros((len(battles), m))
    rows = np.arange(len(battles))
    x[rows, battles.model_a] = 1.0
    x[rows, battles.model_b] = -1.0
    x = np.vstack([x, x])
    y = np.concatenate([np.ones(len(battles)), np.zeros(len(battles))])
    w = np.concatenate([battles.outcome, 1.0 - battles.outcome])

    def fun(beta: np.ndarray) -> tuple[float, np.ndarray]:
        z = x @ beta
        p = 1.0 / (1.0 + np.exp(-z))
        f = w @ (np.logaddexp(0.0, z) - y * z) + 0.5 * reg * beta @ beta
        return float(f), x.T @ (w * (p - y)) + reg * beta

    res = optimize.minimize(fun, np.zeros(m), jac=True, method="BFGS", options={"gtol": 1e-10})
    return np.asarray(res.x)


def test_bt_matches_raw_logistic_regression_with_ties() -> None:
    battles = simulate(np.array([0.3, -0.2, 0.9, 0.0, -1.0, 0.5]), 2000, seed=5, tie_prob=0.25)
    beta = raw_logistic_regression(battles, reg=1e-4)
    expected = ELO_PER_NAT * (beta - beta.mean()) + 1000.0
    np.testing.assert_allclose(bradley_terry(battles, reg=1e-4), expected, atol=1e-3)


def test_bt_anchor_and_scale() -> None:
    battles = simulate(np.array([0.0, 1.0, 2.0]), 600, seed=6)
    centred = bradley_terry(battles)
    assert centred.mean() == pytest.approx(1000.0)
    anchored = bradley_terry(battles, anchor="m1")
    assert anchored[1] == 1000.0
    np.testing.assert_allclose(anchored - anchored[1], centred - centred[1], atol=1e-9)
    with pytest.raises(ValueError, match="unknown model"):
        bradley_terry(battles, anchor="nope")
    with pytest.raises(ValueError, match="reg"):
        bradley_terry(battles, reg=0.0)


def test_never_losing_never_winning_and_absent_models_stay_finite() -> None:
    battles = Battles.from_records(
        ["top", "mid", "top", "mid", "bot", "mid"],
        ["mid", "top", "bot", "bot", "mid", "bot"],
        ["model_a", "model_b", "model_a", "model_a", "model_a", "model_a"],
        ["q1", "q2", "q3", "q4", "q5", "q6"],
        models=["bot", "mid", "top", "idle"],
    )
    ratings = bradley_terry(battles)  # the default prior keeps a small arena moderate
    assert np.all(np.isfinite(ratings))
    assert ratings[2] > ratings[1] > ratings[0]
    assert 100.0 < ratings[2] - ratings[1] < 1000.0
    tiny = bradley_terry(battles, reg=1e-6)
    assert np.all(np.isfinite(tiny))
    assert tiny[2] - tiny[1] > 1000.0  # "top" never lost: only the tiny L2 holds it
    never_wins = Battles.from_records(
        ["a", "a", "b"], ["b", "c", "c"], ["model_a", "model_a", "tie"]
    )
    assert np.all(np.isfinite(bradley_terry(never_wins)))
    boot = bootstrap_bradley_terry(battles, rounds=50, seed=0)
    assert np.all(np.isfinite(boot.ci_low)) and np.all(np.isfinite(boot.ci_high))
    # the model without battles sits at the mean (log-strength 0)
    assert ratings[3] == pytest.approx(1000.0, abs=1e-6)


def test_disconnected_components_do_not_crash() -> None:
    battles = Battles(
        [0, 0, 1, 2, 2, 3],
        [1, 1, 0, 3, 3, 2],
        [1.0, 1.0, 1.0, 1.0, 0.0, 0.5],
        np.arange(6),
        ("a", "b", "c", "d"),
    )
    ratings = bradley_terry(battles, reg=1e-6)
    assert np.all(np.isfinite(ratings))
    # within a component the ratings follow the counts: a 2-1 over b, c 1.5-1.5 with d
    assert ratings[0] - ratings[1] == pytest.approx(ELO_PER_NAT * np.log(2.0), abs=0.01)
    assert ratings[2] == pytest.approx(ratings[3], abs=1e-6)
    boot = bootstrap_bradley_terry(battles, rounds=30, seed=0)
    assert np.all(np.isfinite(boot.samples))


# --------------------------------------------------------------------------- bootstrap


def test_bootstrap_is_seeded_and_brackets_point() -> None:
    battles = simulate(np.array([0.0, 0.4, 0.8, 1.6]), 800, seed=8, n_queries=200, tie_prob=0.1)
    first = bootstrap_bradley_terry(battles, rounds=200, seed=11)
    again = bootstrap_bradley_terry(battles, rounds=200, seed=11)
    np.testing.assert_array_equal(first.samples, again.samples)
    assert first.samples.shape == (200, 4)
    assert np.all(first.ci_low < first.rating) and np.all(first.rating < first.ci_high)
    np.testing.assert_allclose(first.rating, bradley_terry(battles), atol=1e-9)
    anchored = bootstrap_bradley_terry(battles, rounds=50, seed=0, anchor="m0")
    assert anchored.ci_low[0] == anchored.ci_high[0] == 1000.0


def test_bootstrap_newton_matches_lbfgs_refits() -> None:
    battles = simulate(np.array([0.0, 0.3, 0.9, 1.2, -0.5]), 600, seed=9, n_queries=150)
    newton = bootstrap_bradley_terry(battles, rounds=15, seed=2, solver="newton")
    lbfgs = bootstrap_bradley_terry(battles, rounds=15, seed=2, solver="lbfgs")
    np.testing.assert_allclose(newton.rating, lbfgs.rating, atol=1e-6)
    np.testing.assert_allclose(newton.samples, lbfgs.samples, atol=1e-3)


def test_bootstrap_resamples_whole_queries() -> None:
    # every query holds one win each way: any resample of queries gives exactly 50%
    a = np.zeros(40, dtype=int)
    b = np.ones(40, dtype=int)
    outcome = np.tile([1.0, 0.0], 20)
    grouped = Battles(a, b, outcome, np.repeat(np.arange(20), 2), ("x", "y"))
    rate = bootstrap_win_rate(grouped, "x", "y", rounds=200, seed=0)
    assert (rate.win_rate, rate.ci_low, rate.ci_high, rate.n_battles) == (0.5, 0.5, 0.5, 40)
    boot = bootstrap_bradley_terry(grouped, rounds=50, seed=0)
    np.testing.assert_allclose(boot.samples, 1000.0, atol=1e-6)
    ungrouped = Battles(a, b, outcome, np.arange(40), ("x", "y"))
    rate = bootstrap_win_rate(ungrouped, "x", "y", rounds=200, seed=0)
    assert rate.ci_low < 0.4 and rate.ci_high > 0.6


def test_bootstrap_win_rate_point_seats_and_missing_pairs() -> None:
    battles = Battles.from_records(
        ["a", "b", "a", "b", "c"],
        ["b", "a", "b", "a", "a"],
        ["model_a", "model_a", "tie", "model_b", "model_a"],
        ["q1", "q1", "q2", "q3", "q4"],
        models=["a", "b", "c", "d"],
    )
    rate = bootstrap_win_rate(battles, "a", "b", rounds=300, seed=1)
    assert rate.win_rate == pytest.approx((1 + 0 + 0.5 + 1) / 4)
    assert rate.n_battles == 4
    assert 0.0 <= rate.ci_low <= rate.win_rate <= rate.ci_high <= 1.0
    flipped = bootstrap_win_rate(battles, "b", "a", rounds=300, seed=1)
    assert flipped.win_rate == pytest.approx(1.0 - rate.win_rate)
    missing = bootstrap_win_rate(battles, "a", "d")
    assert missing.n_battles == 0 and np.isnan(missing.win_rate) and np.isnan(missing.ci_low)
    with pytest.raises(ValueError, match="unknown model"):
        bootstrap_win_rate(battles, "a", "zz")


# --------------------------------------------------------------------------- tables


def test_ci_aware_rank_constructed() -> None:
    low = np.array([1100.0, 1050.0, 990.0, 900.0, 800.0])
    high = np.array([1150.0, 1120.0, 1060.0, 1000.0, 905.0])
    # model 2's upper 1060 is below only model 0's lower 1100; model 3 is below 0, 1;
    # model 4 (upper 905) is below 0, 1, 2 but overlaps model 3 (lower 900).
    assert ci_aware_rank(low, high).tolist() == [1, 1, 2, 3, 4]


def test_matrices_and_model_stats() -> None:
    battles = Battles.from_records(
        ["a", "b", "a", "a", "c"],
        ["b", "a", "b", "c", "a"],
        ["model_a", "model_a", "tie", "model_b", "tie"],
        models=["a", "b", "c", "d"],
    )
    rates = win_rate_matrix(battles)
    assert rates[0, 1] == pytest.approx((1 + 0 + 0.5) / 3)
    assert rates[1, 0] == pytest.approx(1.0 - rates[0, 1])
    assert rates[0, 2] == pytest.approx(0.25) and rates[2, 0] == pytest.approx(0.75)
    assert np.isnan(rates[1, 2]) and np.isnan(rates[0, 3]) and np.isnan(rates[0, 0])
    counts = battle_count_matrix(battles)
    assert counts.tolist() == [[0, 3, 2, 0], [3, 0, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0]]
    stats = model_stats(battles)
    assert stats.wins.tolist() == [1, 1, 1, 0]
    assert stats.losses.tolist() == [2, 1, 0, 0]
    assert stats.ties.tolist() == [2, 1, 1, 0]
    assert stats.battles.tolist() == [5, 3, 2, 0]
    pred = predicted_win_matrix(np.array([1400.0, 1000.0, 1000.0]))
    assert pred[0, 1] == pytest.approx(10.0 / 11.0) and pred[1, 0] == pytest.approx(1.0 / 11.0)
    assert pred[1, 2] == pytest.approx(0.5) and np.isnan(pred[2, 2])


def test_rating_table_end_to_end() -> None:
    battles = simulate(np.array([0.0, 1.5, 0.7, -0.8]), 1200, seed=10, n_queries=300, tie_prob=0.1)
    options = RatingOptions(bootstrap_rounds=100, seed=0, anchor="m0", elo_rounds=10)
    board = rating_table(battles, options)
    assert board.models == ("m1", "m2", "m0", "m3")
    assert np.all(np.diff(board.rating) <= 0)
    assert board.rating[board.models.index("m0")] == 1000.0
    assert board.rank.tolist() == [1, 2, 3, 4]
    assert board.battles.sum() == 2 * len(battles)
    assert board.battle_counts.sum() == 2 * len(battles)
    i, j = board.models.index("m1"), board.models.index("m3")
    assert board.win_rate[i, j] > 0.7 and board.predicted_win[i, j] > 0.7
    assert np.argsort(-board.elo).tolist() == [0, 1, 2, 3]
    records = board.records()
    assert records[0]["model"] == "m1" and set(records[0]) == {
        "model",
        "rating",
        "ci_low",
        "ci_high",
        "elo",
        "rank",
        "wins",
        "losses",
        "ties",
        "battles",
    }
    skipped = rating_table(battles, RatingOptions(bootstrap_rounds=20, elo_rounds=0))
    assert np.all(np.isnan(skipped.elo)) and skipped.effects == () and skipped.method == "bt"
    with pytest.raises(RatingOptionError, match="style"):
        RatingOptions(method="bt", style=("length",))


# --------------------------------------------------------------------------- properties


@st.composite
def battle_sets(draw: st.DrawFn) -> Battles:
    m = draw(st.integers(2, 5))
    n = draw(st.integers(1, 40))
    a = draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n))
    shift = draw(st.lists(st.integers(1, m - 1), min_size=n, max_size=n))
    outcome = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=n, max_size=n))
    query = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    b = [(x + s) % m for x, s in zip(a, shift, strict=True)]
    return Battles(a, b, outcome, query, tuple(f"m{i}" for i in range(m)))


@settings(max_examples=25, deadline=None)
@given(battle_sets())
def test_properties_seat_swap_zero_sum_and_bounds(battles: Battles) -> None:
    swapped = Battles(
        battles.model_b, battles.model_a, 1.0 - battles.outcome, battles.query, battles.models
    )
    boot = bootstrap_bradley_terry(battles, rounds=20, seed=0, reg=1e-2)
    assert boot.rating.mean() == pytest.approx(1000.0)
    assert np.all(boot.ci_low <= boot.ci_high)
    boot_swapped = bootstrap_bradley_terry(swapped, rounds=20, seed=0, reg=1e-2)
    np.testing.assert_allclose(boot_swapped.samples, boot.samples, atol=1e-6)
    elo = online_elo(battles)
    assert elo.sum() == pytest.approx(1000.0 * battles.n_models)
    rates = win_rate_matrix(battles)
    met = ~np.isnan(rates)
    np.testing.assert_allclose(rates[met] + rates.T[met], 1.0)

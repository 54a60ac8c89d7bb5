"""RatingOptions (one record, one default per knob) and the rating-method registry."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from arena.errors import InputError
from arena.ratings import (
    DEFAULT_REG,
    RATING_METHODS,
    Battles,
    RatingFit,
    RatingMethod,
    RatingOptionError,
    RatingOptions,
    bootstrap_bradley_terry,
    bradley_terry,
    elo_median_over_orderings,
    online_elo,
    rating_methods,
    rating_table,
)

pytestmark = pytest.mark.unit


def small_arena() -> Battles:
    """24 battles where one model never loses: the prior decides how far it pulls away."""
    a = ["x", "x", "y", "x", "z", "y"] * 4
    b = ["y", "z", "z", "z", "y", "x"] * 4
    w = ["model_a", "model_a", "model_a", "tie", "model_b", "model_b"] * 4
    return Battles.from_records(a, b, w, [f"q{i % 8}" for i in range(24)])


def test_one_default_prior_for_every_library_entry_point() -> None:
    battles = small_arena()
    assert RatingOptions().reg == DEFAULT_REG == 0.1
    point = bradley_terry(battles)
    np.testing.assert_allclose(point, bradley_terry(battles, reg=DEFAULT_REG), atol=1e-9)
    boot = bootstrap_bradley_terry(battles, rounds=50)
    np.testing.assert_allclose(boot.rating, point, atol=1e-6)
    table = rating_table(battles, RatingOptions(bootstrap_rounds=50, elo_rounds=0))
    np.testing.assert_allclose(table.rating, np.sort(point)[::-1], atol=1e-6)
    # a tiny prior (the old library default) lets the undefeated model run away
    assert np.ptp(bradley_terry(battles, reg=1e-6)) > np.ptp(point) + 10.0


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"reg": 0.0}, "reg"),
        ({"reg": -1.0}, "reg"),
        ({"reg": float("nan")}, "reg"),
        ({"reg": float("inf")}, "reg"),
        ({"bootstrap_rounds": 0}, "bootstrap_rounds"),
        ({"bootstrap_rounds": -5}, "bootstrap_rounds"),
        ({"bootstrap_rounds": 2.5}, "bootstrap_rounds"),
        ({"elo_rounds": -1}, "elo_rounds"),
        ({"seed": -1}, "seed"),
        ({"method": "glicko"}, "method"),
        ({"method": "bt", "style": ("length",)}, "style"),
        ({"style": ("length", "")}, "style"),
        ({"anchor": ""}, "anchor"),
    ],
)
def test_options_validate_every_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(RatingOptionError) as info:
        RatingOptions(**kwargs)  # type: ignore[arg-type]
    assert info.value.option == field and isinstance(info.value, InputError)
    assert f"field {field}" in str(info.value)


def test_unknown_method_lists_the_registered_ones() -> None:
    with pytest.raises(RatingOptionError, match="known: bt, style-bt, elo, elo-median"):
        RatingOptions(method="glicko")


def test_style_resolves_the_method_and_expands_aliases() -> None:
    assert RatingOptions().method == "bt" and RatingOptions().style == ()
    assert RatingOptions(method="style-bt").style == ("length",)
    opts = RatingOptions(style="length,markdown,seat")  # type: ignore[arg-type]
    assert opts.method == "style-bt"
    assert opts.style == ("length", "headers", "lists", "bold", "seat")
    assert RatingOptions(style=("markdown", "headers")).style == ("headers", "lists", "bold")
    assert RatingOptions(bootstrap_rounds=np.int64(7)).bootstrap_rounds == 7  # type: ignore[arg-type]


def test_elo_methods_have_no_intervals_and_rank_by_rating() -> None:
    battles = small_arena()
    online = rating_table(battles, RatingOptions(method="elo", elo_rounds=0))
    assert online.method == "elo"
    assert np.all(np.isnan(online.ci_low)) and np.all(np.isnan(online.ci_high))
    expected = online_elo(battles)
    np.testing.assert_allclose(online.rating, np.sort(expected)[::-1])
    assert online.rank.tolist() == [1, 2, 3]
    median = rating_table(battles, RatingOptions(method="elo-median", elo_rounds=20, seed=3))
    np.testing.assert_allclose(
        median.rating, np.sort(elo_median_over_orderings(battles, rounds=20, seed=3))[::-1]
    )
    anchored = rating_table(battles, RatingOptions(method="elo", anchor="z", elo_rounds=0))
    assert anchored.rating[anchored.models.index("z")] == pytest.approx(1000.0)


# The README's "Extending: a rating method" example, verbatim.
def rate_win_share(battles: Battles, options: RatingOptions) -> RatingFit:
    """Each model's overall score share (tie = half) on the Elo scale; no intervals."""
    m = battles.n_models
    w, y = battles.weight, battles.outcome
    score = np.bincount(battles.model_a, w * y, m) + np.bincount(battles.model_b, w * (1 - y), m)
    games = np.bincount(battles.model_a, w, m) + np.bincount(battles.model_b, w, m)
    share = (score + 0.5) / (games + 1.0)  # one phantom tie keeps 0% and 100% finite
    return RatingFit.point(battles.models, 1000.0 + 400.0 * np.log10(share / (1.0 - share)))


@pytest.fixture
def win_share() -> Iterator[None]:
    with RATING_METHODS.scope():
        RATING_METHODS.register(
            "win-share", RatingMethod(rate_win_share, intervals=False), "overall score share"
        )
        yield


def test_a_new_method_is_one_function_and_one_registration(win_share: None) -> None:
    assert rating_methods()["win-share"] == "overall score share"
    assert RATING_METHODS.lookup("win-share").rate is rate_win_share
    table = rating_table(small_arena(), RatingOptions(method="win-share", elo_rounds=0))
    assert table.method == "win-share" and table.models[0] == "x"
    assert table.rank.tolist() == [1, 2, 3]

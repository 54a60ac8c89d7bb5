"""The order-independent Elo column: automatic for small arenas, on request for large logs,
and computed once when it is also the rating method."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import arena.ratings._elo as elo_module
import arena.ratings._table as table_module
from arena.ratings import (
    DEFAULT_ELO_ROUNDS,
    ELO_AUTO_MAX_BATTLES,
    Battles,
    RatingOptions,
    elo_median_over_orderings,
    rating_table,
)

pytestmark = pytest.mark.unit


def arena(n: int, seed: int = 0) -> Battles:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    b = (a + rng.integers(1, 3, n)) % 3
    return Battles(a, b, (rng.random(n) < 0.5).astype(float), np.arange(n), ("x", "y", "z"))


@pytest.fixture
def elo_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []

    def counting(battles: Battles, **kwargs: Any) -> np.ndarray:
        calls.append(int(kwargs["rounds"]))
        return elo_median_over_orderings(battles, **kwargs)

    monkeypatch.setattr(table_module, "elo_median_over_orderings", counting)
    monkeypatch.setattr(elo_module, "elo_median_over_orderings", counting)  # the method's own
    return calls


def test_elo_rounds_resolve_by_arena_size() -> None:
    auto = RatingOptions()
    assert auto.elo_rounds is None
    assert auto.elo_column_rounds(ELO_AUTO_MAX_BATTLES) == DEFAULT_ELO_ROUNDS
    assert auto.elo_column_rounds(ELO_AUTO_MAX_BATTLES + 1) == 0
    assert RatingOptions(elo_rounds=7).elo_column_rounds(10**7) == 7
    assert RatingOptions(elo_rounds=0).elo_column_rounds(10) == 0


def test_small_arena_gets_the_column_large_log_only_on_request(
    elo_calls: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    battles = arena(300)
    table = rating_table(battles, RatingOptions(bootstrap_rounds=20))
    assert elo_calls == [DEFAULT_ELO_ROUNDS] and np.all(np.isfinite(table.elo))
    monkeypatch.setattr("arena.ratings._options.ELO_AUTO_MAX_BATTLES", 100)
    skipped = rating_table(battles, RatingOptions(bootstrap_rounds=20))
    assert elo_calls == [DEFAULT_ELO_ROUNDS] and np.all(np.isnan(skipped.elo))
    asked = rating_table(battles, RatingOptions(bootstrap_rounds=20, elo_rounds=5))
    assert elo_calls == [DEFAULT_ELO_ROUNDS, 5] and np.all(np.isfinite(asked.elo))


def test_elo_median_method_runs_the_shuffles_once(elo_calls: list[int]) -> None:
    battles = arena(200, seed=1)
    table = rating_table(battles, RatingOptions(method="elo-median", elo_rounds=12, anchor="y"))
    assert elo_calls == [12]
    medians = elo_median_over_orderings(battles, rounds=12, seed=0)
    order = [battles.models.index(name) for name in table.models]
    np.testing.assert_allclose(table.elo, medians[order])
    np.testing.assert_allclose(table.rating, medians[order] - medians[1] + 1000.0)

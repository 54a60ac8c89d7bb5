"""The gate and pairs a selective judge left to people: it says "undecided by the judge: N
pairs need a person" only when those pairs could change its verdict (scripted battles)."""

from __future__ import annotations

import pytest

from arena.battles import Battle
from arena.compare._compare import _verdict_on, _with_undecided
from arena.compare._undecided import resolved, undecided_matters
from arena.models import ModelConfig
from judges import JudgeSpec

pytestmark = pytest.mark.unit

JUDGE = JudgeSpec(model=ModelConfig(spec="fake:gate"))


def _battle(i: int, winner: str, *, abstained: bool = False) -> Battle:
    return Battle(
        run_id=1,
        case_id=f"C-{i}",
        variant_a="new" if i % 2 else "old",
        variant_b="old" if i % 2 else "new",
        hash_a="h",
        hash_b="g",
        result_a_id=2 * i,
        result_b_id=2 * i + 1,
        winner=winner,
        judge=JUDGE,
        abstained=abstained,
    )


def _new_wins(i: int) -> str:
    return "model_a" if i % 2 else "model_b"


def _verdict(battles: list[Battle]) -> str:
    return _verdict_on(battles, "new", "old", 0.05)


def test_undecided_pairs_resolve_for_either_side_never_as_ties() -> None:
    waiting = [_battle(i, "tie", abstained=True) for i in range(4)]
    for_new = resolved(waiting, "new", True)
    assert [b.winner for b in for_new] == [_new_wins(i) for i in range(4)]
    assert not any(b.abstained for b in for_new)
    assert [b.winner for b in resolved(waiting, "new", False)] == [
        "model_a" if not i % 2 else "model_b" for i in range(4)
    ]


def test_a_few_undecided_pairs_cannot_overturn_a_clear_win() -> None:
    decided = [_battle(i, _new_wins(i)) for i in range(40)]
    waiting = [_battle(i, "tie", abstained=True) for i in range(40, 42)]
    assert not undecided_matters(decided, waiting, "new", _verdict)
    verdict, why = _with_undecided("better", "clear", decided, waiting, ("new", "old"), 0.05)
    assert verdict == "better"
    assert why == (
        "clear; 2 pairs undecided by the judge (abstained, no vote yet) could not change "
        "the verdict"
    )


def test_many_undecided_pairs_make_the_gate_ask_for_a_person() -> None:
    decided = [_battle(i, _new_wins(i)) for i in range(8)]
    waiting = [_battle(i, "tie", abstained=True) for i in range(8, 20)]
    assert undecided_matters(decided, waiting, "new", _verdict)
    verdict, why = _with_undecided("better", "clear", decided, waiting, ("new", "old"), 0.05)
    assert verdict == "inconclusive"
    assert why.startswith("undecided by the judge: 12 pairs need a person")

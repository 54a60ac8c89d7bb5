"""A run's three answers (best variant, cheaper model, judge trust) and the leaderboard read
in words, the same in ``arena ratings`` and the app."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.cli import main
from arena.compare._compare import compare_variants
from arena.display import MIN_BATTLES
from arena.gate import cheaper_variant, run_answers
from arena.leaderboard import (
    VariantStanding,
    best_variant,
    board_notes,
    description_notes,
    shared_rank_notes,
    unranked_notes,
)
from arena.storage import Store
from tests.support.app_fixtures import fill_demo_db

BOOTSTRAP = 200


def _entry(
    name: str, rank: int, rating: float, low: float, high: float, **kw: object
) -> VariantStanding:
    fields: dict[str, object] = {"battles": 18, **kw}
    return VariantStanding(
        variant=name, version="v", rank=rank, rating=rating, ci_low=low, ci_high=high, **fields
    )


@pytest.mark.unit
def test_shared_ranks_are_explained_and_the_best_named_only_when_separable() -> None:
    overlapping = [
        _entry("prompt-v2", 1, 1062, 846, 1302),
        _entry("baseline", 1, 1062, 908, 1235),
        _entry("small-model", 1, 876, 524, 1109),
    ]
    assert best_variant(overlapping) is None
    (note,) = shared_rank_notes(overlapping)
    assert note.startswith("prompt-v2, baseline and small-model share rank 1: their 95% ")
    assert "none of them is proven better than the others" in note
    assert board_notes(overlapping)[0] == (
        "best: none proven yet (the top variants' 95% intervals overlap)"
    )
    separated = [
        _entry("prompt-v2", 1, 1600, 1550, 1650),
        _entry("baseline", 2, 1050, 950, 1150),
        _entry("small-model", 2, 950, 850, 1050),
    ]
    assert best_variant(separated) is not None and best_variant(separated).variant == "prompt-v2"
    notes = board_notes(separated)
    assert notes[0].startswith("best: prompt-v2, rank 1 alone")
    assert (
        notes[1].startswith("baseline and small-model share rank 2")
        and ("neither is proven better than the other; 1 variant is proven better than each")
        in notes[1]
    )


@pytest.mark.unit
def test_too_few_battles_give_no_rank_no_best_and_say_why() -> None:
    one_vote = [
        _entry("a", 1, 1185, 1185, 1185, battles=1),
        _entry("b", 1, 815, 815, 815, battles=1),
    ]
    assert best_variant(one_vote) is None and shared_rank_notes(one_vote) == []
    assert unranked_notes(one_vote) == [
        f"a: 1 battle, fewer than {MIN_BATTLES}: not ranked, no interval",
        f"b: 1 battle, fewer than {MIN_BATTLES}: not ranked, no interval",
    ]
    assert "fewer than two variants have enough battles" in board_notes(one_vote)[0]


@pytest.mark.unit
def test_descriptions_are_checked_against_the_baseline() -> None:
    entries = [
        _entry(
            "baseline",
            1,
            1000,
            900,
            1100,
            cost_per_query=0.0,
            tokens_per_query=588.0,
            p90_latency_s=164.8,
        ),
        _entry(
            "small-model",
            1,
            900,
            800,
            1000,
            cost_per_query=0.0,
            tokens_per_query=2936.0,
            p90_latency_s=393.7,
            description="the cheaper, faster model",
        ),
    ]
    found = description_notes(entries)
    assert len(found) == 2 and all(f.startswith("small-model is described as") for f in found)
    assert [n for n in board_notes(entries) if n.startswith("warning: ")] == [
        f"warning: {f}" for f in found
    ]
    assert cheaper_variant(entries) == "small-model"  # nothing costs less: the description
    assert description_notes(entries, reference="no-such-variant") == []


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="arena-answers-") as folder:
        url = f"sqlite:///{Path(folder) / 'arena.db'}"
        fill_demo_db(url)
        yield url


@pytest.mark.system
def test_the_three_answers_agree_with_compare_and_the_judges_accuracy(demo_url: str) -> None:
    store = Store(demo_url)
    found = run_answers(store, 2, bootstrap=BOOTSTRAP)
    assert found.best.status == "yes" and found.best.variant == "prompt-v2"
    assert found.best.answer.startswith("prompt-v2 is best: rated above every other variant")
    # The cheaper model is the cheap one that says so, not the broken one (cheaper still).
    assert found.cheaper.variant == "small-model"
    verdict = compare_variants(store, "baseline", "small-model", run_id=2, bootstrap=BOOTSTRAP)
    assert verdict.verdict == "worse" and found.cheaper.status == "no"
    assert found.cheaper.answer.startswith("No: small-model vs baseline is WORSE")
    assert "golden cases passed 4/6 (66.7%) vs 6/6 (100%)" in found.cheaper.answer
    assert "tokens per query" in found.cheaper.answer and "p90 latency" in found.cheaper.answer
    assert "cost per query $" in found.cheaper.answer
    assert found.trust.status == "yes"
    assert found.trust.answer.startswith("Yes: fake:judge/text was right on 18 of 18 clear-cut")
    # Run 1: baseline and small-model overlap: none proven, with how many more cases.
    first = run_answers(store, 1, bootstrap=BOOTSTRAP)
    assert first.best.status == "open" and first.best.variant is None
    assert first.best.answer.startswith("None proven yet: baseline leads small-model")
    assert "more case" in first.best.answer


@pytest.mark.system
def test_arena_ratings_says_why_ranks_are_shared_and_names_the_best(
    demo_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ratings", "1", "--db", demo_url, "--bootstrap", str(BOOTSTRAP)]) == 0
    out = capsys.readouterr().out
    assert "best: none proven yet (the top variants' 95% intervals overlap)" in out
    assert "baseline and small-model share rank 1: their 95% intervals overlap, so neither" in out
    assert "2/3 (66.7%)" in out and "None" not in out
    assert main(["ratings", "2", "--db", demo_url, "--bootstrap", str(BOOTSTRAP)]) == 0
    out = capsys.readouterr().out
    assert "best: prompt-v2, rank 1 alone: its 95% interval" in out
    assert os.linesep.join(["", "best:"]) in out  # under the table, on its own line

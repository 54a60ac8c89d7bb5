"""One way of showing numbers (arena.display): the rules the CLI and every app tab share."""

from __future__ import annotations

import math

import pytest

from arena import display

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("rate", "shown"),
    [
        (0.625, "62.5%"),  # the figure: never 62% in one place and 63% in another
        (0.375, "37.5%"),  # with 62.5% it sums to 100% (a heatmap's two cells)
        (0.5, "50%"),
        (1 / 3, "33.3%"),
        (2 / 3, "66.7%"),
        (0.0005, "0.1%"),  # a half rounds up, always
        (0.00049, "0%"),
        (1.0, "100%"),
        (None, "-"),
        (math.nan, "-"),
    ],
)
def test_one_rounding_rule_for_percentages(rate: float | None, shown: str) -> None:
    assert display.percent(rate) == shown


def test_counts_stand_beside_percentages() -> None:
    assert display.of(5, 8) == "5/8 (62.5%)"
    assert display.rate_of(0.625, 8) == "5/8 (62.5%)"
    assert display.rate_of(2 / 3, 6) == "4/6 (66.7%)"
    assert display.rate_of(0.75, 2) == "1.5/2 (75%)"  # a mean over repeats stays honest
    assert display.rate_of(0.5, None) == "50%"
    assert display.rate_of(None, 8) == "-" and display.of(3, 0) == "-"


@pytest.mark.parametrize(
    ("amount", "shown"),
    [
        (0, "$0.00"),
        (0.0, "$0.00"),
        (1.256, "$1.26"),
        (1234.5, "$1,234.50"),
        (0.5, "$0.50"),
        (0.0123, "$0.012"),
        (0.000456, "$0.00046"),
        (-0.0123, "-$0.012"),
        (None, "-"),
    ],
)
def test_one_currency_format(amount: float | None, shown: str) -> None:
    assert display.dollars(amount) == shown


def test_missing_values_never_read_none() -> None:
    for format_ in (
        display.percent,
        display.dollars,
        display.seconds,
        display.tokens,
        display.rating,
        display.score,
    ):
        for value in (None, math.nan):
            assert format_(value) == "-", format_
    assert display.points(None) == "-" and display.points(-0.125) == "-12.5 pts"
    assert display.points(0.0) == "0 pts" and display.points(0.5) == "+50 pts"


def test_no_rank_and_no_interval_below_the_minimum_battles() -> None:
    few = display.MIN_BATTLES - 1
    assert display.rank_text(1, few) == "-" and display.rank_text(1, display.MIN_BATTLES) == "1"
    assert display.interval(1185.0, 1185.0, 1) == "-"
    assert display.interval(1020.4, 1080.6, display.MIN_BATTLES) == "1,020 – 1,081"
    assert display.rating_with_interval(1185.0, 1185.0, 1185.0, 1) == "1,185"
    assert display.rating_with_interval(1050.0, 1020.0, 1080.0, 18) == "1,050 (1,020 – 1,080)"
    assert display.too_few_text(1) == "1 battle, fewer than 5: not ranked"


def test_descriptions_are_checked_against_what_was_measured() -> None:
    # The case: "cheaper, faster" while local models cost $0, the small model uses
    # 5x the tokens and its p90 is higher.
    small = {"cost": 0.0, "tokens": 2936.0, "p90": 393.7}
    base = {"cost": 0.0, "tokens": 588.0, "p90": 164.8}
    found = display.claim_warnings("small-model", "the cheaper, faster model", small, base, "b")
    assert len(found) == 2
    assert "uses 2,936 tokens per query against 588 for b, 5.0x" in found[0]
    assert "p90 latency is 393.7 s against 164.8 s for b" in found[1]
    # True claims and no claims say nothing; dollars are compared when both cost something.
    cheap = {"cost": 0.001, "tokens": 100.0, "p90": 1.0}
    dear = {"cost": 0.01, "tokens": 50.0, "p90": 2.0}
    assert display.claim_warnings("x", "cheaper and faster", cheap, dear, "b") == []
    assert display.claim_warnings("x", "a plain prompt", small, base, "b") == []
    (dearer,) = display.claim_warnings("x", "cheap model", dear, cheap, "b")
    assert "costs $0.01 per query against $0.0010 for b" in dearer


def test_a_winner_from_a_near_tie_is_explained() -> None:
    note = display.near_tie_note("A=B", "A=B", "prompt-v2", 0.484, 0.01)
    assert "both orders read a tie" in note and "P(A better) = 0.484" in note
    assert "0.016 from one half, beyond the tie margin 0.01" in note and "prompt-v2" in note
    assert display.near_tie_note("A>B", "A=B", "prompt-v2", 0.7, 0.01) == ""
    assert display.near_tie_note("A=B", "A=B", None, 0.5, 0.01) == ""

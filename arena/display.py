"""One way of showing numbers, shared by the CLI and the app (standard library only).

Every figure a person reads about a run goes through here, so the same figure reads the same
in ``arena ratings``, ``arena compare`` and every tab of the app:

- **percentages**: at most one decimal, a half rounded up, a trailing ``.0`` dropped
  (``62.5%``, ``50%``, ``33.3%``), with the count beside them when there is one
  (``5/8 (62.5%)``);
- **money**: US dollars with two significant digits below a dollar and cents above
  (``$0.00``, ``$0.0012``, ``$1.25``);
- **missing values**: ``-`` (never ``None`` or ``nan``), or a sentence saying why;
- **ranks and intervals**: none below :data:`MIN_BATTLES` battles (or votes), saying why;
- **descriptions** checked against what was measured (:func:`claim_warnings`);
- **near ties**: a winner named although both orders read a tie, explained (:func:`near_tie_note`).
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

MISSING = "-"
"""What a missing figure reads as."""

MIN_BATTLES = 5
"""The fewest battles (judged pairs or votes) a variant needs before it gets a rank and a 95%
interval: with fewer, an interval is an artefact of a handful of verdicts (one vote gives a
zero-width interval) and a rank would claim what nothing shows."""


def is_missing(value: Any) -> bool:
    """True for None and NaN (pandas' missing value)."""
    if value is None:
        return True
    try:
        return math.isnan(value)
    except TypeError:
        return False


def _num(value: Any) -> float | None:
    """``value`` as a float, None when missing."""
    return None if is_missing(value) else float(value)


def _half_up(value: float, digits: int) -> Decimal:
    step = Decimal(1).scaleb(-digits)
    # repr first: 62.5 stays 62.5 (not 62.4999...), then one rule for every half.
    return Decimal(repr(round(float(value), 9))).quantize(step, rounding=ROUND_HALF_UP)


def percent(value: float | None, empty: str = MISSING) -> str:
    """A 0-1 rate as a percentage, at most one decimal, a half rounded up: ``0.625`` is
    ``62.5%``, ``0.5`` ``50%``, ``1/3`` ``33.3%``; missing gives ``empty``."""
    rate = _num(value)
    if rate is None:
        return empty
    return f"{count(100 * rate)}%"


def points(delta: float | None) -> str:
    """A change of a rate in percentage points: ``+12.5 pts``, ``-50 pts``, ``0 pts``."""
    change = _num(delta)
    if change is None:
        return MISSING
    text = count(100 * change)
    if text in ("0", "-0"):
        return "0 pts"
    return f"{'' if text.startswith('-') else '+'}{text} pts"


def count(value: float) -> str:
    """A number with at most one decimal, a half rounded up: ``5``, ``4.5``, ``62.5``."""
    return f"{_half_up(value, 1):f}".removesuffix(".0")


def of(part: float | None, whole: int | None, empty: str = MISSING) -> str:
    """``5/8 (62.5%)``: a count beside its percentage (``empty`` when there is no whole)."""
    found = _num(part)
    if found is None or not whole:
        return empty
    return f"{count(found)}/{whole} ({percent(found / whole)})"


def rate_of(rate: float | None, whole: int | None, empty: str = MISSING) -> str:
    """A rate over ``whole`` cases with its count: ``rate_of(0.625, 8)`` is ``5/8 (62.5%)``."""
    found = _num(rate)
    if found is None:
        return empty
    if not whole:
        return percent(found, empty)
    return of(found * whole, whole, empty)


def dollars(value: float | None, empty: str = MISSING) -> str:
    """US dollars, one format everywhere: cents from a dollar up and for whole cents
    (``$1.25``, ``$0.00``), two significant digits below (``$0.012``, ``$0.00046``)."""
    amount = _num(value)
    if amount is None:
        return empty
    sign, size = ("-" if amount < 0 else ""), abs(amount)
    if size == 0 or size >= 1 or round(size, 2) == size:
        return f"{sign}${size:,.2f}"
    decimals = max(2, 1 - math.floor(math.log10(size)))
    return f"{sign}${size:.{decimals}f}"


def seconds(value: float | None, empty: str = MISSING) -> str:
    """A duration: ``1.2 s``."""
    found = _num(value)
    return empty if found is None else f"{found:.1f} s"


def tokens(value: float | None, empty: str = MISSING) -> str:
    """Tokens, whole and grouped: ``1,234``."""
    found = _num(value)
    return empty if found is None else f"{found:,.0f}"


def rating(value: float | None, empty: str = MISSING) -> str:
    """A rating on the Elo scale, whole and grouped: ``1,062``."""
    found = _num(value)
    return empty if found is None else f"{found:,.0f}"


def score(value: float | None, empty: str = MISSING) -> str:
    """A golden score, 0 to 1, with two decimals."""
    found = _num(value)
    return empty if found is None else f"{found:.2f}"


def few_battles(battles: int) -> bool:
    """Too few battles for a rank or an interval (fewer than :data:`MIN_BATTLES`)."""
    return battles < MIN_BATTLES


def too_few_text(battles: int) -> str:
    """Why a variant has no rank or interval: ``3 battles, fewer than 5: not ranked``."""
    noun = "battle" if battles == 1 else "battles"
    return f"{battles} {noun}, fewer than {MIN_BATTLES}: not ranked"


def rank_text(rank: int | None, battles: int) -> str:
    """The rank, or ``-`` when unrated or below :data:`MIN_BATTLES` battles."""
    if rank is None or few_battles(battles):
        return MISSING
    return str(int(rank))


def interval(low: float | None, high: float | None, battles: int | None = None) -> str:
    """A rating's 95% interval, ``1,020 – 1,080``; ``-`` when missing or below
    :data:`MIN_BATTLES` battles."""
    if is_missing(low) or is_missing(high) or (battles is not None and few_battles(battles)):
        return MISSING
    return f"{rating(low)} – {rating(high)}"


def rating_with_interval(
    value: float | None, low: float | None, high: float | None, battles: int
) -> str:
    """``1,050 (1,020 – 1,080)``; the rating alone below :data:`MIN_BATTLES` battles."""
    if is_missing(value):
        return MISSING
    band = interval(low, high, battles)
    return rating(value) if band == MISSING else f"{rating(value)} ({band})"


_CHEAPER = re.compile(r"\b(cheap|cheaper|cheapest|low[- ]cost|inexpensive)\b", re.IGNORECASE)
_FASTER = re.compile(r"\b(fast|faster|fastest|quick|quicker|low[- ]latency)\b", re.IGNORECASE)


def claim_warnings(
    name: str,
    description: str,
    measured: dict[str, float | None],
    reference: dict[str, float | None],
    reference_name: str,
) -> list[str]:
    """Where a variant's description claims *cheaper* or *faster* and what was measured says
    otherwise, against ``reference`` (the baseline's figures, named ``reference_name``).

    ``measured`` and ``reference`` hold ``cost`` (dollars per query), ``tokens`` (per query)
    and ``p90`` (seconds). Cost is compared in dollars when both cost something, else in
    tokens (local models cost $0).
    """
    found = []
    cost, ref_cost = _num(measured.get("cost")), _num(reference.get("cost"))
    mine, theirs = _num(measured.get("tokens")), _num(reference.get("tokens"))
    if _CHEAPER.search(description):
        if cost and ref_cost:
            if cost >= ref_cost:
                found.append(
                    f"{name} is described as cheaper, but it costs {dollars(cost)} per query "
                    f"against {dollars(ref_cost)} for {reference_name}"
                )
        elif mine is not None and theirs is not None and mine >= theirs:
            ratio = f", {mine / theirs:.1f}x" if theirs else ""
            found.append(
                f"{name} is described as cheaper, but it uses {tokens(mine)} tokens per query "
                f"against {tokens(theirs)} for {reference_name}{ratio} (cost per query "
                f"{dollars(cost or 0)} for both)"
            )
    p90, ref_p90 = _num(measured.get("p90")), _num(reference.get("p90"))
    if _FASTER.search(description) and p90 is not None and ref_p90 is not None and p90 >= ref_p90:
        found.append(
            f"{name} is described as faster, but its p90 latency is {seconds(p90)} against "
            f"{seconds(ref_p90)} for {reference_name}"
        )
    return found


def near_tie_note(
    ab_label: str | None,
    ba_label: str | None,
    winner_name: str | None,
    p_a: float | None,
    tie_margin: float | None,
) -> str:
    """Why a winner was named although both orders read a tie ('' when that is not the case):
    the order-averaged probability leaned to one side by more than the tie margin."""
    if winner_name is None or ab_label != "A=B" or ba_label != "A=B":
        return ""
    p = _num(p_a)
    if p is None:
        return (
            f"near tie: both orders read a tie; {winner_name} was named from the judge's "
            "combined reading"
        )
    margin = _num(tie_margin)
    beyond = "" if margin is None else f", beyond the tie margin {margin:.3g}"
    return (
        f"near tie: both orders read a tie, but the averaged P(A better) = {p:.3f} is "
        f"{abs(p - 0.5):.3f} from one half{beyond}, so {winner_name} won by a hair"
    )

"""The rating-method registry: every way of turning battles into ratings, by name.

A method is a function ``rate(battles, options) -> RatingFit`` registered under a name. Adding
one is a new module with that function plus one line in :data:`RATING_METHODS` (or a call to
:func:`register_rating_method` from your own code); the CLI's ``--method`` choices, the
leaderboard and :class:`~arena.ratings.RatingOptions` validation all read the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from arena.ratings.battle_arrays import Battles
from arena.ratings.bootstrap import rate_bradley_terry
from arena.ratings.elo import rate_elo_median, rate_online_elo
from arena.ratings.fit import RatingFit
from arena.ratings.style import rate_style_controlled

if TYPE_CHECKING:
    from arena.ratings.options import RatingOptions

RateFunction = Callable[[Battles, "RatingOptions"], RatingFit]


@dataclass(frozen=True)
class RatingMethod:
    """A named rating method.

    ``uses_style``: the method reads ``options.style`` (and needs those covariates in the
    battles); ``intervals``: it reports 95% intervals (otherwise ranks follow the ratings).
    """

    name: str
    summary: str
    rate: RateFunction
    uses_style: bool = False
    intervals: bool = True


RATING_METHODS: dict[str, RatingMethod] = {
    m.name: m
    for m in (
        RatingMethod("bt", "Bradley-Terry MLE, 95% query-bootstrap intervals", rate_bradley_terry),
        RatingMethod(
            "style-bt",
            "Bradley-Terry with style covariates (length, markdown, seat), bootstrap intervals",
            rate_style_controlled,
            uses_style=True,
        ),
        RatingMethod(
            "elo",
            "online Elo in battle order (K=4), no intervals",
            rate_online_elo,
            intervals=False,
        ),
        RatingMethod(
            "elo-median",
            "order-independent Elo: median over elo_rounds seeded shuffles, no intervals",
            rate_elo_median,
            intervals=False,
        ),
    )
}


def register_rating_method(method: RatingMethod) -> None:
    """Add (or replace) a rating method under ``method.name``."""
    RATING_METHODS[method.name] = method


def get_rating_method(name: str) -> RatingMethod:
    """The method registered as ``name``; KeyError naming the known methods."""
    try:
        return RATING_METHODS[name]
    except KeyError:
        known = ", ".join(RATING_METHODS)
        raise KeyError(f"unknown rating method {name!r}; known: {known}") from None


def rating_methods() -> dict[str, str]:
    """Name -> one-line summary of every registered method, in registration order."""
    return {name: m.summary for name, m in RATING_METHODS.items()}

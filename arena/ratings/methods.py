"""The built-in rating methods: every way of turning battles into ratings, by name.

A method is a function ``rate(battles, options) -> RatingFit`` registered under a name in
:data:`arena.registry.RATING_METHODS`. Adding one is a new module with that function
decorated with ``@arena.registry.rating_method(name)`` (or an ``agent_arena.rating_methods``
entry point); the CLI's ``--method`` choices, the leaderboard and
:class:`~arena.ratings.RatingOptions` validation all read the registry.
"""

from __future__ import annotations

from arena.ratings.bootstrap import rate_bradley_terry
from arena.ratings.elo import rate_elo_median, rate_online_elo
from arena.ratings.style import rate_style_controlled
from arena.registry import RATING_METHODS, RatingMethod, UnknownName

BT = RatingMethod("bt", "Bradley-Terry MLE, 95% query-bootstrap intervals", rate_bradley_terry)
STYLE_BT = RatingMethod(
    "style-bt",
    "Bradley-Terry with style covariates (length, markdown, seat), bootstrap intervals",
    rate_style_controlled,
    uses_style=True,
)
ELO = RatingMethod(
    "elo", "online Elo in battle order (K=4), no intervals", rate_online_elo, intervals=False
)
ELO_MEDIAN = RatingMethod(
    "elo-median",
    "order-independent Elo: median over elo_rounds seeded shuffles, no intervals",
    rate_elo_median,
    intervals=False,
)


def register_rating_method(method: RatingMethod) -> None:
    """Add (or replace) a rating method under ``method.name``."""
    RATING_METHODS.register(method.name, method, method.summary)


def get_rating_method(name: str) -> RatingMethod:
    """The method registered as ``name``; KeyError naming the known methods."""
    try:
        method = RATING_METHODS.lookup(name)
    except UnknownName as exc:
        raise KeyError(str(exc)) from None
    if not isinstance(method, RatingMethod):
        raise TypeError(f"rating method {name!r} is not an arena.ratings.RatingMethod")
    return method


def rating_methods() -> dict[str, str]:
    """Name -> one-line summary of every registered method, in registration order."""
    return RATING_METHODS.summaries()


__all__ = [
    "RATING_METHODS",
    "RatingMethod",
    "get_rating_method",
    "rating_methods",
    "register_rating_method",
]

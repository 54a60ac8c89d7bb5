"""The built-in rating methods: every way of turning battles into ratings, by name.

A method is a function ``rate(battles, options) -> RatingFit`` registered under a name in
:data:`arena.registry.RATING_METHODS` (``RATING_METHODS.lookup(name)`` gives it). Adding one
is a new module with that function decorated with ``@rating_method(name, summary)``
(:mod:`arena.extend`) or an ``agent_arena.rating_methods`` entry point; the CLI's
``--method`` choices, the leaderboard and :class:`~arena.ratings.RatingOptions` validation
all read the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena import registry
from arena.ratings._battle_arrays import Battles
from arena.ratings._bootstrap import bootstrap_bradley_terry
from arena.ratings._elo import (
    DEFAULT_ELO_ROUNDS,
    anchored,
    elo_median_fit,
    elo_median_over_orderings,
    online_elo,
)
from arena.ratings._fit import RatingFit
from arena.ratings._style import bootstrap_style_controlled
from arena.registry import RatingMethod, Registry

if TYPE_CHECKING:
    from arena.ratings._options import RatingOptions


def rate_bradley_terry(battles: Battles, options: RatingOptions) -> RatingFit:
    """The ``bt`` rating method: :func:`bootstrap_bradley_terry` with ``options``."""
    return bootstrap_bradley_terry(
        battles,
        rounds=options.bootstrap_rounds,
        seed=options.seed,
        anchor=options.anchor,
        reg=options.reg,
    )


def rate_style_controlled(battles: Battles, options: RatingOptions) -> RatingFit:
    """The ``style-bt`` rating method: :func:`bootstrap_style_controlled` with ``options``."""
    return bootstrap_style_controlled(
        battles,
        features=options.style,
        rounds=options.bootstrap_rounds,
        seed=options.seed,
        anchor=options.anchor,
        reg=options.reg,
    )


def rate_online_elo(battles: Battles, options: RatingOptions) -> RatingFit:
    """The ``elo`` rating method: :func:`online_elo` in the given order, no intervals."""
    return RatingFit.point(battles.models, anchored(online_elo(battles), battles, options.anchor))


def elo_median_rounds(options: RatingOptions) -> int:
    """Shuffles of the ``elo-median`` method: ``options.elo_rounds``, the default when 0/None."""
    return options.elo_rounds or DEFAULT_ELO_ROUNDS


def rate_elo_median(battles: Battles, options: RatingOptions) -> RatingFit:
    """The ``elo-median`` method: :func:`elo_median_over_orderings`, ``options.elo_rounds``
    shuffles (the default when 0 or None), no intervals."""
    rounds = elo_median_rounds(options)
    ratings = elo_median_over_orderings(battles, rounds=rounds, seed=options.seed)
    return elo_median_fit(battles, ratings, options.anchor)


# Named and summarised in arena.registry's table (the one place).
BT = RatingMethod(rate_bradley_terry)
STYLE_BT = RatingMethod(rate_style_controlled, uses_style=True)
ELO = RatingMethod(rate_online_elo, intervals=False)
ELO_MEDIAN = RatingMethod(rate_elo_median, intervals=False)

RATING_METHODS: Registry[RatingMethod] = registry.RATING_METHODS
"""The rating-method registry (:data:`arena.registry.RATING_METHODS`)."""


def rating_methods() -> dict[str, str]:
    """Name -> one-line summary of every registered method, in registration order."""
    return RATING_METHODS.summaries()


__all__ = [
    "RATING_METHODS",
    "RatingMethod",
    "elo_median_rounds",
    "rate_bradley_terry",
    "rate_elo_median",
    "rate_online_elo",
    "rate_style_controlled",
    "rating_methods",
]

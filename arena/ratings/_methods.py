"""The built-in rating methods: every way of turning battles into ratings, by name.

A method is a function ``rate(battles, options) -> RatingFit`` registered under a name in
:data:`~arena.ratings._registry.RATING_METHODS` (``RATING_METHODS.lookup(name)`` gives it). Each
built-in is decorated here with ``@rating_method(name, summary, ...)``, the decorator a plugin
uses (:mod:`arena.extend`; or an ``agent_arena.rating_methods`` entry point); this module is the
registry's home, imported when the registry is first read. The CLI's ``--method`` choices, the
leaderboard and :class:`~arena.ratings.RatingOptions` validation all read the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.ratings._registry import RATING_METHODS, RatingMethod, rating_method

if TYPE_CHECKING:
    from arena.ratings._battle_arrays import Battles
    from arena.ratings._fit import RatingFit
    from arena.ratings._options import RatingOptions

# numpy and scipy load when a method runs: importing this module (which registers the
# methods) stays light.


@rating_method("bt", "Bradley-Terry MLE, 95% query-bootstrap intervals", order=10)
def rate_bradley_terry(battles: Battles, options: RatingOptions) -> RatingFit:
    """The ``bt`` rating method: :func:`bootstrap_bradley_terry` with ``options``."""
    from arena.ratings._bootstrap import bootstrap_bradley_terry

    return bootstrap_bradley_terry(
        battles,
        rounds=options.bootstrap_rounds,
        seed=options.seed,
        anchor=options.anchor,
        reg=options.reg,
    )


@rating_method(
    "style-bt",
    "Bradley-Terry with style covariates (length, markdown, seat), bootstrap intervals",
    uses_style=True,
    order=20,
)
def rate_style_controlled(battles: Battles, options: RatingOptions) -> RatingFit:
    """The ``style-bt`` rating method: :func:`bootstrap_style_controlled` with ``options``."""
    from arena.ratings._style import bootstrap_style_controlled

    return bootstrap_style_controlled(
        battles,
        features=options.style,
        rounds=options.bootstrap_rounds,
        seed=options.seed,
        anchor=options.anchor,
        reg=options.reg,
    )


@rating_method("elo", "online Elo in battle order (K=4), no intervals", intervals=False, order=30)
def rate_online_elo(battles: Battles, options: RatingOptions) -> RatingFit:
    """The ``elo`` rating method: :func:`online_elo` in the given order, no intervals."""
    from arena.ratings._elo import anchored, online_elo
    from arena.ratings._fit import RatingFit

    return RatingFit.point(battles.models, anchored(online_elo(battles), battles, options.anchor))


def elo_median_rounds(options: RatingOptions) -> int:
    """Shuffles of the ``elo-median`` method: ``options.elo_rounds``, the default when 0/None."""
    from arena.ratings._elo import DEFAULT_ELO_ROUNDS

    return options.elo_rounds or DEFAULT_ELO_ROUNDS


@rating_method(
    "elo-median",
    "order-independent Elo: median over elo_rounds seeded shuffles, no intervals",
    intervals=False,
    order=40,
)
def rate_elo_median(battles: Battles, options: RatingOptions) -> RatingFit:
    """The ``elo-median`` method: :func:`elo_median_over_orderings`, ``options.elo_rounds``
    shuffles (the default when 0 or None), no intervals."""
    from arena.ratings._elo import elo_median_fit, elo_median_over_orderings

    rounds = elo_median_rounds(options)
    ratings = elo_median_over_orderings(battles, rounds=rounds, seed=options.seed)
    return elo_median_fit(battles, ratings, options.anchor)


def rating_methods() -> dict[str, str]:
    """Name -> one-line summary of every registered method, in registry order."""
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

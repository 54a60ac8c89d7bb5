"""What a rating method returns: ratings with 95% intervals, and fitted covariate effects."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from arena.ratings._battle_arrays import FloatArray


@dataclass(frozen=True, eq=False)
class Effect:
    """A fitted covariate of a rating model (a style feature or the seat).

    ``coef`` is the change in log-odds of A winning per unit of the covariate as fitted (a
    style feature is scaled to unit root-mean-square, see :mod:`arena.ratings._style`); ``elo``
    is the same in Elo points, with its 95% interval (NaN without a bootstrap). ``scale`` is
    the root-mean-square of the raw feature that one unit stands for (1 for the seat).
    """

    name: str
    coef: float
    elo: float
    ci_low: float
    ci_high: float
    scale: float


@dataclass(frozen=True, eq=False)
class RatingFit:
    """Point ratings (Elo points) with 95% intervals; arrays are in ``models`` order.

    ``samples`` holds one row of ratings per bootstrap round (no rows for a method without
    intervals, whose ``ci_low`` / ``ci_high`` are NaN). ``effects`` lists fitted covariates.
    """

    models: tuple[str, ...]
    rating: FloatArray
    ci_low: FloatArray
    ci_high: FloatArray
    samples: FloatArray
    effects: tuple[Effect, ...] = ()

    @classmethod
    def point(cls, models: tuple[str, ...], rating: FloatArray) -> RatingFit:
        """Ratings without intervals (NaN bounds, no samples)."""
        r = np.asarray(rating, dtype=np.float64)
        nan = np.full(r.shape, np.nan)
        return cls(models, r, nan, nan.copy(), np.empty((0, r.shape[0])))

    @property
    def has_intervals(self) -> bool:
        """True when every model has a finite interval."""
        return bool(np.all(np.isfinite(self.ci_low)) and np.all(np.isfinite(self.ci_high)))

    def effect(self, name: str) -> Effect:
        """The fitted covariate ``name``; KeyError if the model had none."""
        for eff in self.effects:
            if eff.name == name:
                return eff
        raise KeyError(f"no fitted effect {name!r}; have {[e.name for e in self.effects]}")

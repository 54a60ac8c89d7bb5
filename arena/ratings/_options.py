"""RatingOptions: every knob of a rating, in one record passed down whole.

The CLI, the leaderboard and the rating methods all read the same record, so a default lives
in exactly one place (the Bradley-Terry prior is :data:`arena.ratings.DEFAULT_REG`).
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass

from arena.errors import InputError, UnknownName
from arena.ratings._bootstrap import DEFAULT_ROUNDS
from arena.ratings._bradley_terry import DEFAULT_REG
from arena.ratings._elo import DEFAULT_ELO_ROUNDS, ELO_AUTO_MAX_BATTLES
from arena.ratings._style_features import LENGTH, STYLE_ALIASES


class RatingOptionError(InputError):
    """A RatingOptions field out of range; ``option`` names the field, ``reason`` says why."""

    def __init__(self, option: str, reason: str) -> None:
        self.option, self.reason = option, reason
        super().__init__(reason, field=option)


def check_reg(value: float) -> float:
    """The Bradley-Terry L2 prior: a finite number > 0 (ValueError otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"must be a number, got {value!r}")
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(
            f"must be a finite number > 0 (the prior keeps ratings unique and finite), got {value}"
        )
    return float(value)


def check_count(value: int, *, minimum: int) -> int:
    """An integer count >= ``minimum`` (ValueError otherwise)."""
    try:
        if isinstance(value, bool):
            raise TypeError
        count = operator.index(value)
    except TypeError:
        raise ValueError(f"must be a whole number, got {value!r}") from None
    if count < minimum:
        raise ValueError(f"must be >= {minimum}, got {count}")
    return count


def expand_style(names: tuple[str, ...] | list[str] | str) -> tuple[str, ...]:
    """Covariate names with aliases expanded (``markdown`` = headers, lists, bold), deduped.

    A string is read as a comma-separated list.
    """
    items = names.split(",") if isinstance(names, str) else list(names)
    out: list[str] = []
    for raw in items:
        name = str(raw).strip()
        if not name:
            raise ValueError(f"empty style covariate name in {names!r}")
        for part in STYLE_ALIASES.get(name, (name,)):
            if part not in out:
                out.append(part)
    return tuple(out)


@dataclass(frozen=True)
class RatingOptions:
    """How to rate battles.

    Attributes:
        method: a registered rating method (see :func:`arena.ratings.rating_methods`); by
            default ``bt``, or ``style-bt`` when ``style`` names covariates.
        reg: L2 prior on Bradley-Terry log-strengths (> 0), shared by every BT fit.
        bootstrap_rounds: query-bootstrap rounds for the 95% intervals (>= 1).
        seed: seed of the bootstrap and of the Elo shuffles.
        style: style covariates of ``style-bt``: ``length``, ``headers``, ``lists``,
            ``bold`` (``markdown`` = the three counts), any count the battles carry, and
            ``seat`` (seat A's advantage, e.g. a judge's position preference).
        anchor: model pinned at 1000 (default: the mean rating is 1000).
        elo_rounds: shuffles of the order-independent Elo column; 0 skips it. ``None``
            (the default) is :data:`DEFAULT_ELO_ROUNDS` shuffles for up to
            :data:`ELO_AUTO_MAX_BATTLES` battles and none beyond: the column costs one
            sequential step per battle, so a large log gets it only when asked for.

    Raises:
        RatingOptionError: (an InputError) naming the field that is out of range.
    """

    method: str | None = None
    reg: float = DEFAULT_REG
    bootstrap_rounds: int = DEFAULT_ROUNDS
    seed: int = 0
    style: tuple[str, ...] = ()
    anchor: str | None = None
    elo_rounds: int | None = None

    def __post_init__(self) -> None:
        from arena.ratings._registry import RATING_METHODS

        setter = object.__setattr__
        checks = (
            ("reg", check_reg),
            ("bootstrap_rounds", lambda v: check_count(v, minimum=1)),
            ("elo_rounds", lambda v: None if v is None else check_count(v, minimum=0)),
            ("seed", lambda v: check_count(v, minimum=0)),
            ("style", expand_style),
        )
        for name, check in checks:
            try:
                setter(self, name, check(getattr(self, name)))
            except (ValueError, TypeError) as exc:
                raise RatingOptionError(name, str(exc)) from None
        if self.anchor is not None and not (isinstance(self.anchor, str) and self.anchor):
            raise RatingOptionError("anchor", f"must be a model name, got {self.anchor!r}")
        name = self.method or ("style-bt" if self.style else "bt")
        try:
            method = RATING_METHODS.lookup(name)
        except UnknownName as exc:
            raise RatingOptionError("method", str(exc)) from None
        setter(self, "method", method.name)
        if self.style and not method.uses_style:
            raise RatingOptionError(
                "style", f"method {method.name} takes no style covariates (use style-bt)"
            )
        if method.uses_style and not self.style:
            setter(self, "style", (LENGTH,))

    def elo_column_rounds(self, n_battles: int) -> int:
        """Shuffles of the Elo column for ``n_battles`` battles (``elo_rounds`` resolved)."""
        if self.elo_rounds is not None:
            return self.elo_rounds
        return DEFAULT_ELO_ROUNDS if n_battles <= ELO_AUTO_MAX_BATTLES else 0

    @property
    def method_name(self) -> str:
        """The resolved rating method (never None after construction)."""
        return str(self.method)

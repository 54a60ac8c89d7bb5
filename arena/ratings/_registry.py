"""The rating-method registry: :class:`RatingMethod`, :data:`RATING_METHODS` and its decorator
:func:`rating_method`.

This package is the registry's home (the built-ins are :mod:`arena.ratings._methods`); this
module imports nothing of it, so :class:`~arena.ratings.RatingOptions` validates a method's
name and help texts list the methods without loading NumPy.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from arena.registry import Registry, entry_point_group, summary_of

F = TypeVar("F")


@dataclass(frozen=True)
class RatingMethod:
    """A rating method: ``rate(battles, options) -> RatingFit``.

    Attributes:
        rate: the function computing the ratings.
        uses_style: the method reads ``options.style`` (and needs those covariates in the
            battles).
        intervals: it reports 95% intervals (otherwise ranks follow the ratings).
        name: the registered name (set by the registry).
        summary: its one-line summary (set by the registry from the registration).
    """

    rate: Callable[[Any, Any], Any]
    uses_style: bool = False
    intervals: bool = True
    name: str = ""
    summary: str = ""


def _rating_method(name: str, obj: Any, summary: str | None) -> Any:
    method = obj if isinstance(obj, RatingMethod) else RatingMethod(obj)
    text = summary or method.summary or summary_of(method.rate)
    return dataclasses.replace(method, name=name, summary=text)


RATING_METHODS: Registry[RatingMethod] = Registry(
    "rating method",
    entry_point_group("rating_methods"),
    declared_by="rating_method",
    homes=(__package__,),
    base=RatingMethod,
    adapt=_rating_method,
)
"""Rating methods (:class:`RatingMethod`; a bare function is wrapped), by ``--method`` name."""


def rating_method(
    name: str,
    summary: str | None = None,
    *,
    uses_style: bool = False,
    intervals: bool = True,
    replace: bool = False,
    order: int | None = None,
) -> Callable[[F], F]:
    """Register a function ``rate(battles, options) -> RatingFit`` as ``--method name``.

    Args:
        name: the method's name.
        summary: one line for ``arena ratings --methods`` (default: the first docstring line).
        uses_style: the method reads ``options.style``.
        intervals: the method reports 95% intervals.
        replace: replace a method already registered as ``name``.
        order: its place in listings: the built-ins (defined under the kind's home) come
            first, by ``order``; then every other entry, those with an ``order`` by it,
            then the rest in registration order.

    Returns:
        A decorator registering the function and returning it unchanged.

    Raises:
        NameTaken: ``name`` is registered already and ``replace`` is false.
    """

    def register(fn: F) -> F:
        rate: Callable[[Any, Any], Any] = fn  # type: ignore[assignment]
        method = RatingMethod(rate, uses_style=uses_style, intervals=intervals)
        origin = getattr(fn, "__module__", None)
        RATING_METHODS.register(name, method, summary, replace=replace, origin=origin, order=order)
        return fn

    return register

"""The mutation-operator registry and its decorator.

This package is the registry's home (the built-ins are :mod:`arena.mutation._operators`);
:class:`~arena.mutation._base.MutationOperator` declares itself its base. This module imports
nothing of the package, so ``arena mutate --help`` lists the operators without loading a pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from arena.registry import Registry, adapt_instance, entry_point_group

F = TypeVar("F")

MUTATION_OPERATORS: Registry[Any] = Registry(
    "mutation operator",
    entry_point_group("mutation_operators"),
    declared_by="mutation_operator",
    homes=(__package__,),
    base_declared_later=True,
    adapt=adapt_instance,
)
"""Mutation operators of ``arena mutate`` (instances of
:class:`~arena.mutation._base.MutationOperator`, which declares itself the base; a class is
instantiated), in the order a pass applies them; typed ``Registry[MutationOperator]`` as
:data:`arena.mutation.OPERATORS`."""


def mutation_operator(
    name: str, summary: str | None = None, *, replace: bool = False, order: int | None = None
) -> Callable[[F], F]:
    """Register a ``MutationOperator`` subclass (or instance) as ``arena mutate --operators name``.

    Args:
        name: the operator's name (in mutant ids and reports).
        summary: one line for ``arena mutate --help`` (default: the first docstring line).
        replace: replace an operator already registered as ``name``.
        order: its place in listings and in a pass: the built-ins (defined under the kind's
            home) come first, by ``order``; then every other entry, those with an ``order``
            by it, then the rest in registration order.

    Returns:
        A decorator registering an instance (its ``name`` and ``summary`` set) and returning
        the decorated object unchanged.

    Raises:
        NameTaken: ``name`` is registered already and ``replace`` is false.
        TypeError: the decorated object is not a ``MutationOperator``.
    """
    return MUTATION_OPERATORS.decorator(name, summary, replace=replace, order=order)

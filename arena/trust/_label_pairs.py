"""One label per judged pair, and a hold-out split that keeps pairs and cases whole.

A guarantee backed by labels is backed by the pairs they label: three votes on one pair are one
piece of evidence, not three. :func:`one_per_pair` reduces labelled verdicts to one per pair
(:class:`PairId`: the case, the repeat and the two variants, unordered; the run is kept to tell
which run's verdict is newest):

- labels of the newest run with the pair are kept (a rerun of the same pairs adds none);
- people's votes count by majority, a tie of votes is dropped;
- a pair with a majority of votes takes it; otherwise its golden label (or any other source's
  label, by the same majority rule) stands;
- labels without a pair (``pair`` None) cannot be told apart, so together they are one pair.

:func:`split_by_case` holds out whole cases (all of a case's pairs on one side).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import numpy as np

VOTES = "votes"


class _Label(Protocol):
    """What a label says here (:class:`arena.trust.Labelled` has it)."""

    @property
    def pair(self) -> PairId | None: ...
    @property
    def agrees(self) -> bool: ...
    @property
    def source(self) -> str: ...


Labelled = TypeVar("Labelled", bound=_Label)


@dataclass(frozen=True, order=True)
class PairId:
    """Which pair a label is about: the case, the repeat and the two variants (unordered, so
    ``(a, b)`` and ``(b, a)`` are one pair); ``run`` says which run judged it and is no part of
    the identity (build with :meth:`of`)."""

    case: str
    repeat: int
    variants: tuple[str, str]
    run: int | None = field(default=None, compare=False)

    @classmethod
    def of(cls, run: int | None, case: str, repeat: int, a: str, b: str) -> PairId:
        """The pair of variants ``a`` and ``b`` on a case and repeat, in either order."""
        first, second = sorted((a, b))
        return cls(case=case, repeat=repeat, variants=(first, second), run=run)


def _newest(labels: list[Labelled]) -> list[Labelled]:
    runs = [x.pair.run for x in labels if x.pair is not None and x.pair.run is not None]
    if not runs:
        return labels
    newest = max(runs)
    return [x for x in labels if x.pair is not None and x.pair.run in (newest, None)]


def _majority(labels: list[Labelled]) -> Labelled | None:
    """The label most of ``labels`` give (the first of them), None on a tie."""
    agreeing = [x for x in labels if x.agrees]
    disagreeing = [x for x in labels if not x.agrees]
    if len(agreeing) == len(disagreeing):
        return None
    return (agreeing if len(agreeing) > len(disagreeing) else disagreeing)[0]


def merge_pair(labels: list[Labelled]) -> Labelled | None:
    """One pair's labels as one (module docstring), None when they cancel out."""
    labels = _newest(labels)
    votes = _majority([x for x in labels if x.source == VOTES])
    if votes is not None:
        return votes
    return _majority([x for x in labels if x.source != VOTES])


def one_per_pair(labelled: Sequence[Labelled]) -> list[Labelled]:
    """One label per pair, in the order the pairs first appear."""
    groups: dict[PairId | None, list[Labelled]] = defaultdict(list)
    for item in labelled:
        groups[item.pair].append(item)
    merged = (merge_pair(labels) for labels in groups.values())
    return [item for item in merged if item is not None]


def _case(item: Labelled) -> str | None:
    return None if item.pair is None else item.pair.case


def split_by_case(
    labelled: Sequence[Labelled], share: float, seed: int
) -> tuple[list[Labelled], list[Labelled]]:
    """(kept, held out): about ``share`` of the pairs held out, whole cases at a time, seeded."""
    per_case = Counter(_case(x) for x in labelled)
    cases = sorted(per_case, key=str)
    held_cases: set[str | None] = set()
    held = 0
    for i in np.random.default_rng(seed).permutation(len(cases)):
        if held >= share * len(labelled):
            break
        held_cases.add(cases[i])
        held += per_case[cases[i]]
    kept = [x for x in labelled if _case(x) not in held_cases]
    return kept, [x for x in labelled if _case(x) in held_cases]

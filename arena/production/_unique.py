"""Trace ids must be unique across the whole source, checked in the streaming pass, and so
must the case ids they become (:attr:`ProductionTrace.case_id`: an id that is not a safe case
id is hashed, so ``trace-<hash of X>`` given as an id would collide with ``X``).

Sampling keeps a share of the traces, but a trace id given twice is bad input wherever it is:
which of the two is production's answer would be a guess. The pass keeps 8 bytes per trace (a
digest of its id, and its line number), not the traces; at the end of the pass a duplicated
digest is looked up again in a file to name the id (a pipe cannot be read again: its two lines
are named from the numbers kept). An id made from the query (a CSV row without an id:
:func:`~arena.production._langsmith_runs.query_id`) is not checked: two such rows are one
query asked twice, which sampling counts once.
"""

from __future__ import annotations

import hashlib
import re
from array import array
from collections.abc import Callable, Iterable, Iterator

import numpy as np

from arena.errors import InputError
from arena.production._langsmith_runs import query_id
from arena.production._trace import ProductionTrace

_ENDING = re.compile(r"\d+$")
Placed = Iterable[tuple[str, ProductionTrace]]


def _digest(trace_id: str) -> int:
    return int.from_bytes(hashlib.blake2b(trace_id.encode(), digest_size=8).digest(), "big")


def _first_repeat(digests: array[int]) -> tuple[int, int] | None:
    """The ordinals of two traces with one digest (the later one earliest in the file)."""
    values = np.frombuffer(digests, dtype=np.uint64)
    ordered = np.sort(values)  # one copy; positions are looked up only for a repeat
    repeated = np.unique(ordered[1:][ordered[1:] == ordered[:-1]])
    if repeated.size == 0:
        return None
    pairs = []
    for digest in repeated:
        first, second = np.nonzero(values == digest)[0][:2]
        pairs.append((int(first), int(second)))
    return min(pairs, key=lambda pair: pair[1])


def unique_ids(
    placed: Placed, *, file: str | None, reread: Callable[[], Placed] | None = None
) -> Iterator[ProductionTrace]:
    """The traces of ``placed`` ((place, trace) pairs), lazily; at the end of the pass,
    InputError (field ``trace_id``) naming both places of a trace id given twice.
    ``reread`` gives the pairs again (a file), to name the id; without it (a pipe) the places
    are named from the numbers kept in the pass."""
    digests: array[int] = array("Q")
    numbers: array[int] = array("Q")  # the number ending each place ("line 3", "run #3")
    prefix = "trace #"
    for number, (where, trace) in enumerate(placed):
        made = trace.trace_id == query_id(trace.query)
        digests.append(_digest(f"\0{number}" if made else trace.case_id))  # made: unique
        found = _ENDING.search(where)
        prefix = where[: found.start()] if found else "trace #"  # one kind of place a source
        numbers.append(int(found.group()) if found else number + 1)
        yield trace
    repeat = _first_repeat(digests)
    if repeat is None:
        return
    first, second = repeat
    places = {n: f"{prefix}{numbers[n]}" for n in (first, second)}
    ids: dict[int, ProductionTrace] = {}
    if reread is not None:
        for number, (where, trace) in enumerate(reread()):
            if number in places:
                places[number], ids[number] = where, trace
            if number >= second:
                break
    if len({t.case_id for t in ids.values()}) > 1:
        return  # two case ids with one 64-bit digest, not one id twice
    if len({t.trace_id for t in ids.values()}) > 1:
        raise InputError(
            f"trace ids {ids[first].trace_id!r} and {ids[second].trace_id!r} (first at "
            f"{places[first]}) become the same case id {ids[second].case_id!r} (an id that is "
            "not a safe case id is hashed); give one of them another id",
            file=file,
            at=places[second],
            field="trace_id",
        )
    named = f" {ids[second].trace_id!r}" if ids else ""
    raise InputError(
        f"trace id{named} is given twice (first at {places[first]})",
        file=file,
        at=places[second],
        field="trace_id",
    )

"""Helpers of :meth:`Battles.from_records`: Chatbot-Arena-style records as index arrays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arena.vocabulary import WINNER_SCORE

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


def strings(values: Sequence[Any]) -> NDArray[np.str_]:
    """``values`` as a numpy string array (each item through ``str`` unless already one)."""
    arr = np.asarray(values)
    if arr.dtype.kind != "U" or arr.ndim != 1:
        arr = np.array([str(v) for v in values], dtype=str)
    return arr


def winner_scores(winner: NDArray[np.str_]) -> FloatArray:
    """Model A's score per battle from Chatbot Arena winner strings (NaN if unknown)."""
    outcome = np.full(winner.shape[0], np.nan)
    for name, score in WINNER_SCORE.items():
        outcome[winner == name] = score
    return outcome


def check_rows(
    winner: NDArray[np.str_],
    bad_winner: NDArray[np.bool_],
    model_a: NDArray[np.str_],
    self_battle: NDArray[np.bool_],
) -> None:
    """ValueError naming the first row with an unknown winner or a self-battle."""
    rows = np.flatnonzero(bad_winner | self_battle)
    if not rows.size:
        return
    row = int(rows[0])
    if bad_winner[row]:
        raise ValueError(
            f"row {row}: unknown winner {str(winner[row])!r}; expected one of "
            f"{', '.join(repr(k) for k in WINNER_SCORE)}"
        )
    raise ValueError(f"row {row}: self-battle of model {str(model_a[row])!r}")


def model_index(
    col_a: NDArray[np.str_], col_b: NDArray[np.str_], names: list[str]
) -> tuple[IntArray, IntArray]:
    """Indices into ``names`` of both columns (ValueError naming the first unknown model)."""
    table = np.array(names, dtype=str) if names else np.array([], dtype=str)
    order = np.argsort(table, kind="stable")
    ordered = table[order]
    out = []
    unknown = []
    for col in (col_a, col_b):
        pos = np.minimum(np.searchsorted(ordered, col), max(len(names) - 1, 0))
        found = ordered[pos] == col if len(names) else np.zeros(col.shape[0], dtype=bool)
        unknown.append(~found)
        out.append(order[pos].astype(np.int64) if len(names) else np.zeros(col.shape[0], np.int64))
    bad = unknown[0] | unknown[1]
    if bad.any():
        row = int(np.argmax(bad))
        name = col_a[row] if unknown[0][row] else col_b[row]
        raise ValueError(f"row {row}: model {str(name)!r} not in models")
    return out[0], out[1]


def style_columns(
    style_a: Mapping[str, Sequence[float]] | None,
    style_b: Mapping[str, Sequence[float]] | None,
    n: int,
) -> tuple[tuple[str, ...], FloatArray | None, FloatArray | None]:
    """(names, A matrix, B matrix) from per-name columns; both sides need the same names."""
    if style_a is None and style_b is None:
        return (), None, None
    if style_a is None or style_b is None or set(style_a) != set(style_b):
        raise ValueError("style_a and style_b must name the same counts")
    names = tuple(style_a)
    if not names:
        return (), None, None
    cols = [
        np.column_stack([np.asarray(side[k], dtype=np.float64).reshape(n) for k in names])
        for side in (style_a, style_b)
    ]
    return names, cols[0], cols[1]

"""Battle arrays: the one input every rating function in this package reads.

A battle is one pairwise comparison between two models on one query. Battles are held
column-wise as numpy arrays (model indices, outcome, query index, weight, optional answer
lengths and other per-answer style counts) so that every estimator is a vectorised pass over
arrays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from arena.ratings._from_records import (
    check_rows,
    model_index,
    strings,
    style_columns,
    winner_scores,
)

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


def _frozen(values: ArrayLike, dtype: type[Any], name: str, ndim: int = 1) -> NDArray[Any]:
    """Copy ``values`` into a read-only array of ``dtype`` with ``ndim`` dimensions."""
    arr = np.array(values, dtype=dtype, copy=True)
    if arr.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {arr.shape}")
    arr.setflags(write=False)
    return arr


def _first_bad_row(mask: NDArray[np.bool_]) -> int:
    return int(np.flatnonzero(mask.reshape(mask.shape[0], -1).any(axis=1))[0])


def _check_counts(arr: FloatArray, name: str, n: int) -> None:
    if arr.shape[0] != n:
        raise ValueError(f"{name} has {arr.shape[0]} entries, model_a has {n}")
    bad = ~(np.isfinite(arr) & (arr >= 0.0))
    if bad.any():
        raise ValueError(f"row {_first_bad_row(bad)}: {name} must be finite and >= 0")


@dataclass(frozen=True, eq=False)
class Battles:
    """Pairwise battles between ``models``, one entry per battle in every array.

    Attributes:
        model_a: index into ``models`` of the first model.
        model_b: index into ``models`` of the second model.
        outcome: score of model A: 1.0 A wins, 0.5 tie, 0.0 B wins (any value in [0, 1]).
        query: index of the query the battle was fought on (the bootstrap unit).
        models: model names.
        weight: non-negative weight of each battle (default 1.0).
        len_a, len_b: optional answer lengths, used by style control.
        style_names: names of further per-answer counts (e.g. ``headers``, ``lists``,
            ``bold``), columns of ``style_a`` / ``style_b`` (battles x names).
    """

    model_a: IntArray
    model_b: IntArray
    outcome: FloatArray
    query: IntArray
    models: tuple[str, ...]
    weight: FloatArray = field(default_factory=lambda: np.empty(0))
    len_a: FloatArray | None = None
    len_b: FloatArray | None = None
    style_names: tuple[str, ...] = ()
    style_a: FloatArray | None = None
    style_b: FloatArray | None = None

    def __post_init__(self) -> None:
        setter = object.__setattr__
        a = _frozen(self.model_a, np.int64, "model_a")
        n = a.shape[0]
        b = _frozen(self.model_b, np.int64, "model_b")
        out = _frozen(self.outcome, np.float64, "outcome")
        q = _frozen(self.query, np.int64, "query")
        w_in = np.ones(n) if np.size(self.weight) == 0 and n > 0 else self.weight
        w = _frozen(w_in, np.float64, "weight")
        for name, arr in (("model_b", b), ("outcome", out), ("query", q), ("weight", w)):
            if arr.shape[0] != n:
                raise ValueError(f"{name} has {arr.shape[0]} entries, model_a has {n}")
        models = tuple(str(m) for m in self.models)
        if len(set(models)) != len(models):
            raise ValueError("model names must be unique")
        m = len(models)
        for name, idx in (("model_a", a), ("model_b", b)):
            bad = (idx < 0) | (idx >= m)
            if bad.any():
                raise ValueError(f"row {_first_bad_row(bad)}: {name} index out of range [0, {m})")
        same = a == b
        if same.any():
            row = _first_bad_row(same)
            raise ValueError(f"row {row}: self-battle of model {models[a[row]]!r}")
        bad = ~((out >= 0.0) & (out <= 1.0))
        if bad.any():
            raise ValueError(f"row {_first_bad_row(bad)}: outcome must be in [0, 1]")
        bad = q < 0
        if bad.any():
            raise ValueError(f"row {_first_bad_row(bad)}: query index must be non-negative")
        bad = ~(np.isfinite(w) & (w >= 0.0))
        if bad.any():
            raise ValueError(f"row {_first_bad_row(bad)}: weight must be finite and >= 0")
        if (self.len_a is None) != (self.len_b is None):
            raise ValueError("len_a and len_b must be given together")
        if self.len_a is not None and self.len_b is not None:
            for name in ("len_a", "len_b"):
                arr = _frozen(getattr(self, name), np.float64, name)
                _check_counts(arr, name, n)
                setter(self, name, arr)
        self._init_style(n)
        for name, arr in (("model_a", a), ("model_b", b), ("outcome", out), ("query", q)):
            setter(self, name, arr)
        setter(self, "weight", w)
        setter(self, "models", models)

    def _init_style(self, n: int) -> None:
        names = tuple(str(x) for x in self.style_names)
        if len(set(names)) != len(names) or "length" in names:
            raise ValueError("style_names must be unique and not 'length' (use len_a/len_b)")
        object.__setattr__(self, "style_names", names)
        if (self.style_a is None) != (self.style_b is None):
            raise ValueError("style_a and style_b must be given together")
        if self.style_a is None:
            if names:
                raise ValueError("style_names given without style_a/style_b")
            return
        for side in ("style_a", "style_b"):
            arr = _frozen(getattr(self, side), np.float64, side, ndim=2)
            if arr.shape[1] != len(names):
                raise ValueError(f"{side} has {arr.shape[1]} columns, style_names {len(names)}")
            _check_counts(arr, side, n)
            object.__setattr__(self, side, arr)

    @classmethod
    def from_records(
        cls,
        model_a: Sequence[str],
        model_b: Sequence[str],
        winner: Sequence[str],
        query: Sequence[str] | None = None,
        *,
        weight: Sequence[float] | None = None,
        len_a: Sequence[float] | None = None,
        len_b: Sequence[float] | None = None,
        style_a: Mapping[str, Sequence[float]] | None = None,
        style_b: Mapping[str, Sequence[float]] | None = None,
        models: Sequence[str] | None = None,
    ) -> Battles:
        """Build battles from Chatbot-Arena-style records.

        ``winner`` is one of ``"model_a"``, ``"model_b"``, ``"tie"``, ``"tie (bothbad)"``.
        Model names are sorted (or taken from ``models``, which may list models without
        battles); query ids are sorted. Without ``query`` each battle is its own query.
        ``style_a`` / ``style_b`` map a count's name to its per-battle values (same keys).

        Raises:
            ValueError: naming the row index of an unknown winner, a self-battle or an
                unknown model, or when the columns have different lengths.
        """
        n = len(model_a)
        for name, col in (("model_b", model_b), ("winner", winner), ("query", query)):
            if col is not None and len(col) != n:
                raise ValueError(f"{name} has {len(col)} entries, model_a has {n}")
        col_a, col_b = strings(model_a), strings(model_b)
        winners = strings(winner)
        outcome = winner_scores(winners)
        check_rows(winners, np.isnan(outcome), col_a, col_a == col_b)
        if models is None:
            names = sorted(set(np.unique(col_a).tolist()) | set(np.unique(col_b).tolist()))
        else:
            names = [str(name) for name in models]
        idx_a, idx_b = model_index(col_a, col_b, names)
        if query is None:
            q = np.arange(n, dtype=np.int64)
        else:
            q = np.unique(strings(query), return_inverse=True)[1].astype(np.int64)
        style_names, sa, sb = style_columns(style_a, style_b, n)
        return cls(
            model_a=idx_a,
            model_b=idx_b,
            outcome=outcome,
            query=q.reshape(-1),
            models=tuple(names),
            weight=np.ones(n) if weight is None else np.asarray(weight, dtype=np.float64),
            len_a=None if len_a is None else np.asarray(len_a, dtype=np.float64),
            len_b=None if len_b is None else np.asarray(len_b, dtype=np.float64),
            style_names=style_names,
            style_a=sa,
            style_b=sb,
        )

    def __len__(self) -> int:
        return int(self.model_a.shape[0])

    @property
    def n_models(self) -> int:
        """Number of models (including models without battles)."""
        return len(self.models)

    def index_of(self, model: str) -> int:
        """Index of ``model`` in ``models``; ValueError if unknown."""
        try:
            return self.models.index(model)
        except ValueError:
            raise ValueError(f"unknown model {model!r}; known: {list(self.models)}") from None

    def style_counts(self, name: str) -> tuple[FloatArray, FloatArray] | None:
        """Per-battle (A, B) values of a style count (``length`` is ``len_a``/``len_b``)."""
        if name == "length":
            if self.len_a is None or self.len_b is None:
                return None
            return self.len_a, self.len_b
        if name not in self.style_names or self.style_a is None or self.style_b is None:
            return None
        col = self.style_names.index(name)
        return self.style_a[:, col], self.style_b[:, col]

    def select(self, mask: NDArray[np.bool_] | IntArray) -> Battles:
        """Battles picked by a boolean mask or an index array (same ``models``)."""
        return Battles(
            model_a=self.model_a[mask],
            model_b=self.model_b[mask],
            outcome=self.outcome[mask],
            query=self.query[mask],
            models=self.models,
            weight=self.weight[mask],
            len_a=None if self.len_a is None else self.len_a[mask],
            len_b=None if self.len_b is None else self.len_b[mask],
            style_names=self.style_names,
            style_a=None if self.style_a is None else self.style_a[mask],
            style_b=None if self.style_b is None else self.style_b[mask],
        )

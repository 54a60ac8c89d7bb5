"""The battle-log reader's fast path: a JSONL log parsed by pyarrow, columns encoded in bulk.

:func:`read_fast` returns ``None`` whenever the file holds anything it does not handle exactly
as the row-by-row reader does (a JSON list, a parse error, a missing, empty or mistyped field,
an unknown winner, a self-battle, question ids missing from some rows or neither all strings
nor all integers, a required count missing or invalid). The caller then reads the file row by
row, which gives the same battles or names the bad row. ``null`` is read as an absent value on
both paths.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from arena.battle_log.sources import SOURCES
from arena.vocabulary import LOG_WINNERS, WINNER_SCORE

if TYPE_CHECKING:
    import pyarrow as pa

    from arena.ratings import Battles

_TEXT = ("model_a", "model_b", "winner")
_BOM = b"\xef\xbb\xbf"


class _Unsupported(Exception):
    """The fast path cannot read this file exactly like the row-by-row reader."""


def read_fast(path: Path, style: tuple[str, ...]) -> Battles | None:
    """Battles from a JSONL battle log, or None to fall back to the row-by-row reader."""
    try:
        import pyarrow as pa
        import pyarrow.json as pj
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        return None
    try:
        first = _first_row(path)
        schema, infer = _schema(first)
        options = pj.ParseOptions(
            explicit_schema=schema, unexpected_field_behavior="infer" if infer else "ignore"
        )
        table = pj.read_json(path, parse_options=options)
        if table.num_rows == 0:
            return None
        return _battles(table, style)
    except (_Unsupported, pa.ArrowException, OSError, ValueError, UnicodeDecodeError):
        return None


def _first_row(path: Path) -> dict[str, Any]:
    """The first non-blank line parsed as a JSON object (a JSON list is unsupported)."""
    with path.open("rb") as fh:
        for raw in fh:
            line = raw.strip()
            if not line:
                continue
            if line.startswith(_BOM) or not line.startswith(b"{"):
                raise _Unsupported
            row = json.loads(line.decode("utf-8"))
            if not isinstance(row, dict):
                raise _Unsupported
            return row
    raise _Unsupported  # no rows: the row-by-row reader says so


def _schema(first: dict[str, Any]) -> tuple[pa.Schema, bool]:
    """The columns to parse, typed from the first row, and whether to infer the others.

    Counts that the first row holds as FastChat's nested dicts are left to inference (their
    keys vary), which parses every other field too; otherwise only the fields read are parsed.
    """
    import pyarrow as pa

    qid = first.get("question_id")
    if isinstance(qid, bool) or not (qid is None or isinstance(qid, str | int)):
        raise _Unsupported
    fields = [(name, pa.string()) for name in _TEXT]
    fields.append(("question_id", pa.int64() if isinstance(qid, int) else pa.string()))
    fields += [("len_a", pa.float64()), ("len_b", pa.float64())]
    meta = first.get("conv_metadata")
    keys = [key for sources in SOURCES.values() for c, *pair in sources if c for key in pair]
    nested = isinstance(meta, dict) and any(isinstance(meta.get(k), dict) for k in keys)
    if not nested:
        fields.append(("conv_metadata", pa.struct([(k, pa.float64()) for k in keys])))
    return pa.schema(fields), nested


def _battles(table: pa.Table, style: tuple[str, ...]) -> Battles:
    import pyarrow as pa
    import pyarrow.compute as pc

    from arena.ratings import Battles

    for name in _TEXT:
        col = table.column(name)
        if col.null_count or pc.any(pc.equal(pc.utf8_length(col), 0)).as_py():
            raise _Unsupported
    names = pc.unique(
        pa.chunked_array(table.column("model_a").chunks + table.column("model_b").chunks)
    )
    names = names.take(pc.sort_indices(names))
    idx_a, idx_b = (_index(table.column(c), names) for c in ("model_a", "model_b"))
    if np.any(idx_a == idx_b):
        raise _Unsupported
    winner = _index(table.column("winner"), pa.array(LOG_WINNERS))
    outcome = np.array([WINNER_SCORE[w] for w in LOG_WINNERS])[winner]
    counts = {name: _style_column(table, name, required=name in style) for name in SOURCES}
    found = {name: col for name, col in counts.items() if col is not None}
    length = found.pop("length", None)
    return Battles(
        model_a=idx_a,
        model_b=idx_b,
        outcome=outcome,
        query=_queries(table),
        models=tuple(names.to_pylist()),
        len_a=None if length is None else length[0],
        len_b=None if length is None else length[1],
        style_names=tuple(found),
        style_a=np.column_stack([v[0] for v in found.values()]) if found else None,
        style_b=np.column_stack([v[1] for v in found.values()]) if found else None,
    )


def _index(col: pa.ChunkedArray, values: pa.Array) -> np.ndarray:
    """Positions of ``col``'s values in ``values`` (unsupported if one is missing)."""
    import pyarrow.compute as pc

    idx = pc.index_in(col, value_set=values)
    if idx.null_count:
        raise _Unsupported
    return np.asarray(idx.to_numpy(), dtype=np.int64)


def _queries(table: pa.Table) -> np.ndarray:
    """Query indices in sorted question-id order; each battle its own without ids."""
    import pyarrow as pa
    import pyarrow.compute as pc

    col = table.column("question_id")
    if col.null_count == len(col):
        return np.arange(len(col), dtype=np.int64)
    if col.null_count:
        raise _Unsupported  # the row-by-row reader names rows without an id by line
    if not pa.types.is_string(col.type):
        col = pc.cast(col, pa.string())  # int64 ids: str(int) has the same digits
    ids = pc.unique(col)
    return _index(col, ids.take(pc.sort_indices(ids)))


def _style_column(
    table: pa.Table, name: str, *, required: bool
) -> tuple[np.ndarray, np.ndarray] | None:
    """(A, B) counts of one style count, picked per row like the row-by-row reader."""
    n = table.num_rows
    value_a, value_b = np.full(n, np.nan), np.full(n, np.nan)
    chosen = np.zeros(n, dtype=bool)
    for container, key_a, key_b in SOURCES[name]:
        holder = _holder(table, container)
        if holder is None:
            continue
        col_a, col_b = (_field(holder, key) for key in (key_a, key_b))
        present = ~chosen & (~np.isnan(col_a) | ~np.isnan(col_b))
        value_a[present], value_b[present] = col_a[present], col_b[present]
        chosen |= present
    valid = np.isfinite(value_a) & np.isfinite(value_b) & (value_a >= 0) & (value_b >= 0)
    if valid.all():
        return value_a, value_b
    if required:
        raise _Unsupported  # the row-by-row reader names the row and the field
    return None


def _holder(table: pa.Table, container: str | None) -> Any:
    """The table itself, or its struct column ``container`` (None if it has none)."""
    import pyarrow as pa

    if container is None:
        return table
    if container not in table.column_names:
        return None
    col = table.column(container)
    if not pa.types.is_struct(col.type):
        raise _Unsupported
    return col.combine_chunks()


def _field(holder: Any, key: str) -> np.ndarray:
    """One count as floats, NaN where absent (a nested dict is summed, absent keys as 0)."""
    import pyarrow as pa

    if isinstance(holder, pa.Table):
        if key not in holder.column_names:
            return np.full(holder.num_rows, np.nan)
        return _numbers(holder.column(key).combine_chunks())
    if holder.type.get_field_index(key) < 0:
        return np.full(len(holder), np.nan)
    values = _numbers(holder.field(key))
    if holder.null_count:
        values[np.asarray(holder.is_null().to_numpy(zero_copy_only=False))] = np.nan
    return values


def _numbers(arr: Any) -> np.ndarray:
    """A numeric or (nested) struct arrow array as float64, NaN for null."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_integer(arr.type) or pa.types.is_floating(arr.type):
        return np.asarray(pc.cast(arr, pa.float64()).to_numpy(zero_copy_only=False), dtype=float)
    if pa.types.is_null(arr.type):
        return np.full(len(arr), np.nan)
    if not pa.types.is_struct(arr.type):
        raise _Unsupported  # e.g. booleans or strings: the row-by-row reader rejects them
    total = np.zeros(len(arr))
    for i in range(arr.type.num_fields):
        part = _numbers(arr.field(i))
        total += np.where(np.isnan(part), 0.0, part)
    if arr.null_count:
        total[np.asarray(arr.is_null().to_numpy(zero_copy_only=False))] = np.nan
    return total

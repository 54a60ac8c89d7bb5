"""The battle-log reader's fast path: a JSONL log parsed by pyarrow, columns encoded in bulk.

:func:`read_fast` returns ``None`` whenever the file holds anything it does not handle exactly
as the row-by-row reader does (a line nested deeper than ``MAX_NESTING`` or holding ``NaN``
or ``Infinity``, which pyarrow would crash on or accept: :mod:`arena.inputs.scan`; a JSON
list, a parse error, a key given twice, a missing, empty or mistyped field,
an ``arena_format`` that is not 1 to :data:`~arena.records.log_rows.LOG_FORMAT`, an unknown
winner, a self-battle, question ids missing from some rows or neither all strings
nor all integers, a required count missing or invalid). The caller then reads the file row by
row, which gives the same battles or names the bad row. ``null`` is read as an absent value on
both paths.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from arena.battle_log.arrow_columns import UnsupportedColumn, to_float, to_int64
from arena.battle_log.sources import SOURCES
from arena.errors import ROW_FORMAT_KEY
from arena.records.log_rows import LOG_FORMAT
from arena.vocabulary import WINNER_SCORE

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
    from arena.inputs.scan import plain_jsonl

    try:
        first = _first_row(path)
        if not plain_jsonl(path):  # too deep for pyarrow's parser, or NaN: read row by row
            return None
        counts = tuple(name for name in SOURCES if _has_count(first, name))
        if any(name != "seat" and name not in counts for name in style):
            return None  # a required count missing from the first row: the row reader says so
        schema, infer = _schema(first, counts)
        options = pj.ParseOptions(
            explicit_schema=schema, unexpected_field_behavior="infer" if infer else "ignore"
        )
        table = pj.read_json(path, parse_options=options)
        return _battles(table, counts, style) if table.num_rows else None
    except (_Unsupported, UnsupportedColumn, pa.ArrowException, OSError, ValueError):
        return None
    except RecursionError:  # a first row nested 100,000 deep: the row reader says so
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


def _has_count(row: dict[str, Any], name: str) -> bool:
    """Whether ``row`` holds some source of the style count ``name``.

    A count that the first row lacks cannot be in every row, so it is not loaded.
    """
    for container, key_a, key_b in SOURCES[name]:
        holder = row if container is None else row.get(container)
        if isinstance(holder, dict) and (
            holder.get(key_a) is not None or holder.get(key_b) is not None
        ):
            return True
    return False


def _schema(first: dict[str, Any], counts: tuple[str, ...]) -> tuple[pa.Schema, bool]:
    """The columns to parse, typed from the first row, and whether to infer the others.

    Only the sources of ``counts`` are parsed besides the battle itself. When the first row
    holds FastChat's nested count dicts (whose keys vary), ``conv_metadata`` is left to
    inference, which parses every other field too.
    """
    import pyarrow as pa

    qid = first.get("question_id")
    if isinstance(qid, bool) or not (qid is None or isinstance(qid, str | int)):
        raise _Unsupported
    fields = [(name, pa.string()) for name in _TEXT]
    fields.append(("question_id", pa.int64() if isinstance(qid, int) else pa.string()))
    fields.append((ROW_FORMAT_KEY, pa.int64()))  # every row's, checked: a newer one falls back
    meta_keys = []
    for name in counts:
        for container, key_a, key_b in SOURCES[name]:
            if container is None:
                fields += [(key_a, pa.float64()), (key_b, pa.float64())]
            else:
                meta_keys += [key_a, key_b]
    meta = first.get("conv_metadata")
    nested = isinstance(meta, dict) and any(isinstance(meta.get(k), dict) for k in meta_keys)
    if meta_keys and not nested:
        fields.append(("conv_metadata", pa.struct([(k, pa.float64()) for k in meta_keys])))
    return pa.schema(fields), nested


def _battles(table: pa.Table, counts: tuple[str, ...], style: tuple[str, ...]) -> Battles:
    import pyarrow as pa
    import pyarrow.compute as pc

    from arena.ratings import Battles

    for name in _TEXT:
        col = table.column(name)
        if col.null_count or pc.min(pc.utf8_length(col)).as_py() == 0:
            raise _Unsupported
    versions = pc.min_max(table.column(ROW_FORMAT_KEY)).as_py()
    if versions["min"] is not None and not 1 <= versions["min"] <= versions["max"] <= LOG_FORMAT:
        raise _Unsupported  # the row reader names the row and the version
    sides = table.column("model_a").chunks + table.column("model_b").chunks
    names = _sorted_unique(pa.chunked_array(sides, type=pa.string()))
    idx_a, idx_b = (_index(table.column(c), names) for c in ("model_a", "model_b"))
    if np.any(idx_a == idx_b):
        raise _Unsupported
    winners = pc.unique(table.column("winner"))
    known = winners.to_pylist()
    if any(w not in WINNER_SCORE for w in known):
        raise _Unsupported
    outcome = np.array([WINNER_SCORE[w] for w in known])[_index(table.column("winner"), winners)]
    columns = {name: _style_column(table, name, required=name in style) for name in counts}
    found = {name: col for name, col in columns.items() if col is not None}
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


def _sorted_unique(col: Any) -> Any:
    """The distinct strings of ``col`` in Python's sort order (UTF-8 byte order)."""
    import pyarrow.compute as pc

    values = pc.unique(col)
    return values.take(pc.sort_indices(values))


def _index(col: Any, values: Any) -> np.ndarray:
    """Positions of ``col``'s values in ``values`` (unsupported if one is missing)."""
    import pyarrow.compute as pc

    return to_int64(pc.index_in(col, value_set=values))


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
        col = pc.cast(col, pa.string())  # int64 ids: the digits of str(int)
    return _index(col, _sorted_unique(col))


def _style_column(
    table: pa.Table, name: str, *, required: bool
) -> tuple[np.ndarray, np.ndarray] | None:
    """(A, B) counts of one style count, each row from its first present source."""
    n = table.num_rows
    value_a, value_b = np.full(n, np.nan), np.full(n, np.nan)
    chosen = np.zeros(n, dtype=bool)
    for container, key_a, key_b in SOURCES[name]:
        col_a, col_b = (_field(table, container, key) for key in (key_a, key_b))
        present = ~chosen & ~(np.isnan(col_a) & np.isnan(col_b))
        value_a[present], value_b[present] = col_a[present], col_b[present]
        chosen |= present
    valid = np.isfinite(value_a) & np.isfinite(value_b) & (value_a >= 0) & (value_b >= 0)
    if valid.all():
        return value_a, value_b
    if required:
        raise _Unsupported  # the row-by-row reader names the row and the field
    return None


def _field(table: pa.Table, container: str | None, key: str) -> np.ndarray:
    """A top-level or ``container.key`` count as floats, NaN where absent."""
    import pyarrow as pa

    if container is None:
        if key not in table.column_names:
            return np.full(table.num_rows, np.nan)
        return to_float(table.column(key))
    if container not in table.column_names:
        return np.full(table.num_rows, np.nan)
    holder = table.column(container)
    if not pa.types.is_struct(holder.type):
        raise _Unsupported  # e.g. a string in every row: let the row reader decide
    if holder.type.get_field_index(key) < 0:
        return np.full(table.num_rows, np.nan)
    position = holder.type.get_field_index(key)
    parts = [to_float(chunk.flatten()[position]) for chunk in holder.chunks]
    return np.concatenate(parts) if parts else np.zeros(0)

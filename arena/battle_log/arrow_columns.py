"""Arrow columns to numpy arrays, read straight from their buffers.

``pyarrow``'s own ``to_numpy`` imports pandas (a second or so), which would cost more than
parsing a large log; these helpers read the value and validity buffers instead. They take the
primitive and struct columns the JSON reader produces.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

_INTS = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


class UnsupportedColumn(Exception):
    """A column of a type these helpers do not convert (e.g. strings or booleans)."""


def _chunks(arr: Any) -> list[Any]:
    return list(arr.chunks) if hasattr(arr, "chunks") else [arr]


def _valid(chunk: Any) -> NDArray[np.bool_]:
    """Validity of one array chunk (True where not null)."""
    n = len(chunk)
    bitmap = chunk.buffers()[0]
    if chunk.null_count == 0 or bitmap is None:
        return np.ones(n, dtype=bool)
    bits = np.unpackbits(np.frombuffer(bitmap, dtype=np.uint8), bitorder="little")
    return bits[chunk.offset : chunk.offset + n].astype(bool)


def _values(chunk: Any) -> NDArray[Any]:
    """The value buffer of a primitive integer or floating chunk as numpy."""
    import pyarrow as pa

    kind = chunk.type
    if pa.types.is_integer(kind) and pa.types.is_signed_integer(kind):
        dtype: Any = _INTS[kind.bit_width]
    elif pa.types.is_float64(kind):
        dtype = np.float64
    else:
        raise UnsupportedColumn(str(kind))
    if len(chunk) == 0:
        return np.zeros(0, dtype=dtype)
    width = np.dtype(dtype).itemsize
    return np.frombuffer(
        chunk.buffers()[1], dtype=dtype, count=len(chunk), offset=chunk.offset * width
    )


def to_int64(arr: Any) -> NDArray[np.int64]:
    """A signed-integer column without nulls as int64."""
    if arr.null_count:
        raise UnsupportedColumn("nulls in an integer column")
    parts = [_values(c).astype(np.int64) for c in _chunks(arr)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def to_float(arr: Any) -> NDArray[np.float64]:
    """A count column as float64, NaN where null.

    Integer and floating columns convert as they are; a struct column (FastChat's nested
    dict of counts) is the sum of its fields, an absent field counting 0, NaN where the
    struct itself is null.
    """
    import pyarrow as pa

    out = []
    for chunk in _chunks(arr):
        kind = chunk.type
        if pa.types.is_null(kind):
            out.append(np.full(len(chunk), np.nan))
            continue
        if pa.types.is_struct(kind):
            total = np.zeros(len(chunk))
            for child in chunk.flatten():
                part = to_float(child)
                total += np.where(np.isnan(part), 0.0, part)
        elif pa.types.is_integer(kind) or pa.types.is_floating(kind):
            if not pa.types.is_float64(kind) and not pa.types.is_signed_integer(kind):
                import pyarrow.compute as pc

                chunk = pc.cast(chunk, pa.float64())
            total = _values(chunk).astype(np.float64)
        else:
            raise UnsupportedColumn(str(kind))
        out.append(np.where(_valid(chunk), total, np.nan))
    return np.concatenate(out) if out else np.zeros(0)

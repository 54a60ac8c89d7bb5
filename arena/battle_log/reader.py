"""Read a battle log in Chatbot Arena's public schema into rating arrays.

Each row has ``model_a``, ``model_b``, ``winner`` (``model_a``, ``model_b``, ``tie``,
``tie (bothbad)``, or what FastChat and arena-hard write: see :mod:`arena.records.log_rows`)
and optionally ``question_id`` (the bootstrap unit; each battle is its own otherwise). Style
counts come along when every row has them: ``len_a`` / ``len_b`` (answer lengths), else
FastChat's ``conv_metadata.sum_assistant_a_tokens`` / ``_b_tokens``; and
``conv_metadata.header_count_a``, ``list_count_a``, ``bold_count_a`` and their ``_b`` twins
(a number, or FastChat's nested dict of numbers, which is summed). A ``null`` value is read
as an absent one. Self-battles are skipped and counted; other fields are ignored unless a
``--where`` condition names them (see :mod:`arena.battle_log.options`).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.battle_log.fast_reader import read_fast
from arena.battle_log.options import LogCounts, Where, is_strong
from arena.battle_log.sources import SOURCES
from arena.errors import InputError
from arena.inputs.files import read_json_rows
from arena.records.log_rows import arena_row
from arena.vocabulary import ERROR

if TYPE_CHECKING:
    from arena.ratings import Battles

Row = dict[str, Any]


def load_battle_log(
    path: str | Path,
    *,
    style: tuple[str, ...] = (),
    where: tuple[Where, ...] = (),
    strong_weight: float = 1.0,
    counts: LogCounts | None = None,
) -> Battles:
    """Battles from a JSONL (or JSON list) battle log.

    ``style`` names the style counts the caller needs (``length``, ``headers``, ``lists``,
    ``bold``; ``seat`` needs none): each must be in every row. Other counts are loaded when
    every row has a valid value, and skipped otherwise.

    A JSONL log is parsed by pyarrow and encoded column by column; anything that path does
    not take (a JSON list, a bad row, ...) is read row by row, with the same result or an
    error naming the row.

    Rows failing a ``where`` condition are left out, self-battles skipped (both counted in
    ``counts``); a strong verdict (:func:`~arena.battle_log.options.is_strong`) weighs
    ``strong_weight`` battles.

    Raises:
        InputError: naming the file, the row and the field of the first bad row.
    """
    plain = not where and strong_weight == 1.0
    if plain and all(name == "seat" or name in SOURCES for name in style):
        fast = read_fast(Path(path), style)
        if fast is not None:
            return fast
    return read_rows(path, style=style, where=where, strong_weight=strong_weight, tally=counts)


def read_rows(
    path: str | Path,
    *,
    style: tuple[str, ...] = (),
    where: tuple[Where, ...] = (),
    strong_weight: float = 1.0,
    tally: LogCounts | None = None,
) -> Battles:
    """:func:`load_battle_log` row by row (the reference the fast path must match)."""
    from arena.ratings import Battles

    file = str(path)
    tally = tally if tally is not None else LogCounts()
    rows = _kept(read_json_rows(path, kind="battle log").rows, file, where, tally)
    a, b, winner, query = [], [], [], []
    for number, row in rows:  # each checked by _kept
        a.append(row["model_a"])
        b.append(row["model_b"])
        winner.append(row["winner"])
        qid = row.get("question_id")
        query.append(f"__row{number}" if qid is None else str(qid))
    if not a:
        skipped = tally.summary()
        raise InputError("no battles in the file" + (f": {skipped}" if skipped else ""), file=file)
    unknown = [name for name in style if name != "seat" and name not in SOURCES]
    if unknown:
        raise InputError(
            f"unknown style count {unknown[0]!r}; a battle log can carry {', '.join(SOURCES)}",
            file=file,
            field="style",
        )
    counts = {name: _style_column(rows, name, file, required=name in style) for name in SOURCES}
    found = {name: col for name, col in counts.items() if col is not None}
    length = found.pop("length", None)
    has_ids = any(row.get("question_id") is not None for _, row in rows)
    return Battles.from_records(
        a,
        b,
        winner,
        query if has_ids else None,
        weight=None
        if strong_weight == 1.0
        else [strong_weight if is_strong(row) else 1.0 for _, row in rows],
        len_a=None if length is None else length[0],
        len_b=None if length is None else length[1],
        style_a={k: v[0] for k, v in found.items()} or None,
        style_b={k: v[1] for k, v in found.items()} or None,
    )


def _kept(
    rows: list[tuple[int, Row]], file: str, where: tuple[Where, ...], counts: LogCounts
) -> list[tuple[int, Row]]:
    """The rows that battle: each checked, then kept unless a condition fails or it is a
    self-battle (both counted)."""
    kept = []
    for number, written in rows:
        row = arena_row(written, file, f"row {number}", counts.winners)
        _check_row(row, number, file)
        counts.rows += 1
        if row["winner"] == ERROR:
            continue  # counted in counts.winners
        if not all(condition.matches(row) for condition in where):
            counts.filtered += 1
        elif row["model_a"] == row["model_b"]:
            counts.self_battles += 1
        else:
            counts.strong += is_strong(row)
            kept.append((number, row))
    return kept


def _check_row(row: Row, number: int, file: str) -> None:
    for field in ("model_a", "model_b"):
        if not isinstance(row.get(field), str) or not row[field]:
            raise InputError(
                "missing or not a string", file=file, case=f"row {number}", field=field
            )


def _count(value: Any) -> float | None:
    """A non-negative finite count, or the sum of a dict of them; None if not one."""
    if isinstance(value, dict):  # a null in it is an absent key
        parts = [_count(v) for v in value.values() if v is not None]
        return None if any(p is None for p in parts) else float(sum(p or 0.0 for p in parts))
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


def _lookup(row: Row, name: str) -> tuple[float | None, float | None, str]:
    """(A, B) values of one style count in a row, and the field that was (or would be) read."""
    for container, key_a, key_b in SOURCES[name]:
        holder = row if container is None else row.get(container)
        if not isinstance(holder, dict) or (
            holder.get(key_a) is None and holder.get(key_b) is None
        ):
            continue  # this source is absent (a null value counts as absent)
        where = f"{container}." if container else ""
        value_a, value_b = _count(holder.get(key_a)), _count(holder.get(key_b))
        bad = key_a if value_a is None else key_b
        return value_a, value_b, where + bad
    first = SOURCES[name][0]
    return None, None, (f"{first[0]}." if first[0] else "") + first[1]


def _style_column(
    rows: list[tuple[int, Row]], name: str, file: str, *, required: bool
) -> tuple[list[float], list[float]] | None:
    col_a, col_b = [], []
    for number, row in rows:
        value_a, value_b, field = _lookup(row, name)
        if value_a is None or value_b is None:
            if not required:
                return None
            raise InputError(
                f"style control on {name} needs a count >= 0 in every row",
                file=file,
                case=f"row {number}",
                field=field,
            )
        col_a.append(value_a)
        col_b.append(value_b)
    return col_a, col_b

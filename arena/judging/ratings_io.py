"""From stored battles or a Chatbot Arena battle log to rating arrays and leaderboard rows."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from arena.errors import InputError
from arena.judging.records import Battle

DEFAULT_REG = 0.1
WINNERS = ("model_a", "model_b", "tie", "tie (bothbad)")


class RatingRow(BaseModel):
    """One model on a rating leaderboard (Chatbot Arena style)."""

    model: str
    rating: float
    ci_low: float
    ci_high: float
    elo: float
    rank: int
    wins: int
    losses: int
    ties: int
    battles: int
    win_rate: float | None


def battles_to_arrays(battles: list[Battle]) -> Any:
    """arena.ratings.Battles from stored battles; errored battles are left out.

    The bootstrap unit is the golden case (all repeats and pairs of a case together).
    """
    from arena.ratings import Battles

    usable = [b for b in battles if b.winner != "error"]
    if not usable:
        raise InputError("no judged battles to rate: run `arena judge` first")
    return Battles.from_records(
        [b.variant_a for b in usable], [b.variant_b for b in usable],
        [b.winner for b in usable], [b.case_id for b in usable],
        len_a=[b.len_a for b in usable], len_b=[b.len_b for b in usable])


def load_battle_log(path: str | Path) -> Any:
    """Battles from a JSONL (or JSON list) log in Chatbot Arena's public schema.

    Each row has ``model_a``, ``model_b``, ``winner`` (model_a, model_b, tie, tie (bothbad))
    and optionally ``question_id`` (the bootstrap unit; each battle is its own otherwise).
    """
    from arena.ratings import Battles

    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", file=file) from None
    rows = _rows(text, file)
    a, b, winner, query = [], [], [], []
    for number, row in rows:
        for field in ("model_a", "model_b", "winner"):
            if not isinstance(row.get(field), str) or not row[field]:
                raise InputError("missing or not a string", file=file, case=f"row {number}",
                                 field=field)
        if row["winner"] not in WINNERS:
            raise InputError(f"winner must be one of {', '.join(WINNERS)}, got "
                             f"{row['winner']!r}", file=file, case=f"row {number}",
                             field="winner")
        if row["model_a"] == row["model_b"]:
            raise InputError("a model cannot battle itself", file=file, case=f"row {number}",
                             field="model_b")
        a.append(row["model_a"])
        b.append(row["model_b"])
        winner.append(row["winner"])
        query.append(str(row.get("question_id", f"__row{number}")))
    if not a:
        raise InputError("no battles in the file", file=file)
    return Battles.from_records(a, b, winner, query)


def _rows(text: str, file: str) -> list[tuple[int, dict[str, Any]]]:
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"malformed JSON at line {exc.lineno}: {exc.msg}",
                             file=file) from None
        rows = list(enumerate(data, 1))
    else:
        rows = []
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    rows.append((number, json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise InputError(f"malformed JSON: {exc.msg}", file=file,
                                     case=f"line {number}") from None
    for number, row in rows:
        if not isinstance(row, dict):
            raise InputError("a battle must be a JSON object", file=file, case=f"row {number}")
    return rows


def rating_rows(battles: Any, *, bootstrap: int = 1000, seed: int = 0,
                style_control: bool = False, anchor: str | None = None,
                reg: float = DEFAULT_REG) -> tuple[list[RatingRow], Any]:
    """Leaderboard rows sorted by rating, and the full ratings Leaderboard (matrices)."""
    from arena.ratings import leaderboard

    board = leaderboard(battles, bootstrap_rounds=bootstrap, seed=seed, anchor=anchor,
                        style="length" if style_control else None, reg=reg)
    rows = []
    for i, name in enumerate(board.models):
        n = int(board.battles[i])
        wins, ties = int(board.wins[i]), int(board.ties[i])
        rows.append(RatingRow(
            model=name, rating=float(board.rating[i]), ci_low=float(board.ci_low[i]),
            ci_high=float(board.ci_high[i]), elo=_num(board.elo[i]), rank=int(board.rank[i]),
            wins=wins, losses=int(board.losses[i]), ties=ties, battles=n,
            win_rate=(wins + 0.5 * ties) / n if n else None))
    return rows, board


def _num(value: float) -> float:
    return float(value) if not math.isnan(value) else float("nan")

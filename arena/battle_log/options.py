"""What ``arena ratings --battles`` does to a real log beyond reading it: a row filter
(``--where anony=true``), arena-hard's strong-verdict weights, what was skipped, and scores
against an anchor model.

Public logs hold self-battles (a model judged against itself, e.g. arena-hard's baseline
against its own answers): they say nothing about a ranking, so they are skipped and counted,
as FastChat's analysis does.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from arena.errors import InputError
from arena.records.log_rows import WinnerCounts

#: arena-hard counts a strong verdict (``A>>B``) as this many battles.
ARENA_HARD_STRONG_WEIGHT = 3.0


@dataclass(frozen=True)
class Where:
    """One ``FIELD=VALUE`` condition: the row's field equals VALUE (read as JSON when it
    parses, so ``anony=true`` matches ``true`` and ``turn=1`` matches ``1``; else a string)."""

    field: str
    value: Any

    def matches(self, row: dict[str, Any]) -> bool:
        """Whether the row satisfies the condition (a missing field does not)."""
        if self.field not in row:
            return False
        found = row[self.field]
        if isinstance(found, bool) or isinstance(self.value, bool):
            return found is self.value
        return bool(found == self.value)


def parse_where(conditions: list[str] | tuple[str, ...]) -> tuple[Where, ...]:
    """``["anony=true", "language=English"]`` as conditions (InputError naming ``--where``)."""
    parsed = []
    for text in conditions:
        name, sep, raw = text.partition("=")
        if not sep or not name.strip():
            raise InputError(f"--where: expected FIELD=VALUE, got {text!r}")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        parsed.append(Where(name.strip(), value))
    return tuple(parsed)


@dataclass
class LogCounts:
    """What reading a log skipped: rows filtered out by ``--where``, self-battles, and the
    winners read from other tools' words (inconsistent verdicts, judge errors)."""

    rows: int = 0
    filtered: int = 0
    self_battles: int = 0
    strong: int = 0
    notes: list[str] = field(default_factory=list)
    winners: WinnerCounts = field(default_factory=WinnerCounts)

    def summary(self) -> str:
        """One line for the user, or an empty string when nothing was skipped."""
        parts = []
        if self.filtered:
            parts.append(f"{self.filtered} of {self.rows} rows left out by --where")
        if self.self_battles:
            parts.append(
                f"{self.self_battles} self-battle{'s' if self.self_battles != 1 else ''} "
                "(a model against itself) skipped"
            )
        if self.strong:
            parts.append(f"{self.strong} strong verdicts weighted")
        return "; ".join([*parts, self.winners.summary()] if self.winners.summary() else parts)


def is_strong(row: dict[str, Any]) -> bool:
    """A strong verdict: ``strong: true`` (``arena battles export``) or an arena-hard style
    ``score``/``verdict`` of ``A>>B`` / ``B>>A``."""
    if row.get("strong") is True:
        return True
    label = row.get("verdict", row.get("score"))
    return isinstance(label, str) and label.replace(" ", "") in ("A>>B", "B>>A")


def anchor_score(
    rating: float | None, anchor_rating: float, scale: float = 400.0, base: float = 10.0
) -> float | None:
    """Win probability (%) against the anchor on the Elo scale, arena-hard style."""
    if rating is None or math.isnan(rating):
        return None
    return 100.0 / (1.0 + base ** ((anchor_rating - rating) / scale))

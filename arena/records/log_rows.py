"""One reader of Chatbot-Arena-style rows, for battle logs and vote files alike (a
foundation: both the battle-log reader and the vote reader import it).

Rows come from :func:`arena.inputs.files.read_json_rows` (JSONL or a JSON list, strictly
parsed). :func:`arena_row` puts each in Chatbot Arena's own spelling, whoever wrote it:

- the public Chatbot Arena dumps and ``arena battles export``: ``model_a``, ``model_b`` and a
  ``winner`` of ``model_a``, ``model_b``, ``tie`` or ``tie (bothbad)``;
- FastChat's MT-Bench judgment files: ``model_1``/``model_2`` and the verdict of each order,
  ``g1_winner``/``g2_winner`` (``model_1``, ``model_2``, ``tie`` or ``error``), combined as
  FastChat does: the same verdict in both orders is the winner, two different ones a tie
  (``inconsistent``); the released ``gpt4_pair`` judgments write that ``tie (inconsistent)``;
- arena-hard-auto's battles (``model_a``/``model_b``, ``model_a``/``model_b``/``tie``).

Every written winner is mapped by :data:`arena.vocabulary.WRITTEN_WINNERS`: an inconsistent
verdict is a tie (counted), ``error`` a row left out (counted), as FastChat reads them. Any
other winner is an InputError naming the file, the row and the field.

A row ``arena battles export`` wrote carries ``arena_format`` (:data:`LOG_FORMAT`); a row
without one (every other tool's) is format 1, and a newer format is refused before the row's
other fields are read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.errors import InputError, check_row_format
from arena.vocabulary import ERROR, WRITTEN_WINNERS

Row = dict[str, Any]
LOG_FORMAT = 1
"""The battle-log row format this release writes (``arena battles export``: each row's
``arena_format``) and reads up to; a row without one is format 1, a newer one is refused
naming the file, the row and the version (:func:`arena.errors.check_row_format`)."""
_INCONSISTENT = ("tie (inconsistent)", "inconsistent")


@dataclass
class WinnerCounts:
    """Rows whose written winner needed reading: inconsistent verdicts, judge errors."""

    inconsistent: int = 0
    errors: int = 0
    written: dict[str, int] = field(default_factory=dict)
    replaced: int = 0
    """Votes left out because the same judge voted on the same pair again later in the file."""

    def note(self, written: str) -> None:
        """Count one row's written winner if it is not already in Chatbot Arena's words."""
        if written in _INCONSISTENT:
            self.inconsistent += 1
        elif written == ERROR:
            self.errors += 1
        else:
            return
        self.written[written] = self.written.get(written, 0) + 1

    def summary(self) -> str:
        """One line for the user, or an empty string when every winner was plain."""
        parts = []
        if self.inconsistent:
            parts.append(
                f"{self.inconsistent} inconsistent verdict{'s' if self.inconsistent != 1 else ''}"
                " (the judge's two orders disagreed) read as ties"
            )
        if self.errors:
            parts.append(
                f"{self.errors} row{'s' if self.errors != 1 else ''} with winner 'error' "
                "(no verdict) left out"
            )
        if self.replaced:
            parts.append(
                f"{self.replaced} earlier vote{'s' if self.replaced != 1 else ''} of a judge on "
                "a pair replaced by their later vote (one vote per judge and pair)"
            )
        return "; ".join(parts)


def arena_row(row: Any, file: str, where: str, counts: WinnerCounts | None = None) -> Row:
    """``row`` in Chatbot Arena's spelling (see the module doc), its winner canonical
    (``error`` included: the caller leaves it out). InputError naming file, row and field."""
    if not isinstance(row, dict):
        raise InputError("a row must be a JSON object", file=file, case=where)
    check_row_format("battle log", row, LOG_FORMAT, file=file, at=where)
    if "model_a" not in row and "model_1" in row:
        row = {**row, "model_a": row.get("model_1"), "model_b": row.get("model_2")}
        if "winner" not in row and "g1_winner" in row:
            row["winner"] = _both_orders(row, file, where)
    written = row.get("winner")
    if not isinstance(written, str) or not written:
        raise InputError("missing or not a string", file=file, case=where, field="winner")
    winner = WRITTEN_WINNERS.get(written)
    if winner is None:
        known = ", ".join(WRITTEN_WINNERS)
        raise InputError(
            f"winner must be one of {known}, got {written!r}",
            file=file,
            case=where,
            field="winner",
        )
    if counts is not None:
        counts.note(written)
    return row if winner == written else {**row, "winner": winner}


def _both_orders(row: Row, file: str, where: str) -> str:
    """FastChat's combined verdict of ``g1_winner`` (model_1 shown first) and ``g2_winner``."""
    verdicts = []
    for name in ("g1_winner", "g2_winner"):
        value = row.get(name)
        if not isinstance(value, str) or value not in WRITTEN_WINNERS:
            raise InputError(
                f"expected one of model_1, model_2, tie, error; got {value!r}",
                file=file,
                case=where,
                field=name,
            )
        verdicts.append(value)
    if ERROR in verdicts:
        return ERROR
    return verdicts[0] if verdicts[0] == verdicts[1] else "inconsistent"

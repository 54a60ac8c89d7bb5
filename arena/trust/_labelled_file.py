"""Labelled verdicts from a file, for calibrating a selective judge on any labelled set (for
example a shipped human-preference set judged by the same judge).

A JSONL file (or one JSON list) of rows: ``source`` (where the label comes from), ``judge``
(optional: the judge's label, e.g. ``local:qwen2.5-coder-1.5b/grades``; a row without one
calibrates every judge), the verdict's ``score`` in [0, 1] or its order-averaged ``p_a``
(P(A better); the score is then ``|2 p_a - 1|``), ``said`` (the judge's winner) and
``label`` (the person's winner), both ``model_a``, ``model_b``, ``tie`` or ``tie (bothbad)``
(``said`` may be ``error``; any other value is refused, naming the line and field), and
optionally the pair it is about (``case_id``, ``variant_a``, ``variant_b``, ``repeat``): rows
naming one pair count once (by majority); a row naming none is a pair of its own. Tied labels
are left out. A source naming MT-Bench is refused. A row may say its format's version,
``arena_format`` (1, the default); a newer one than :data:`LABELLED_FORMAT` is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from arena.errors import InputError, check_row_format
from arena.inputs.files import read_json_rows
from arena.inputs.validation import input_error
from arena.trust._label_pairs import PairId
from arena.trust._selective import Labelled, check_source, label_verdict
from arena.vocabulary import ERROR, LOG_WINNERS

LABELLED_FORMAT = 1
"""The labelled-verdicts row format this release reads up to (a row's ``arena_format``; a row
without one is format 1); a newer one is refused naming the file, the line and the version."""
SAID_WINNERS: tuple[str, ...] = (*LOG_WINNERS, ERROR)
"""What ``said`` may hold: a winner, or ``error`` (the judge gave none: the row is left out)."""


class LabelledRow(BaseModel):
    """One row of a labelled-verdicts file."""

    model_config = ConfigDict(extra="ignore")

    source: str = Field(min_length=1, description="Where the label comes from.")
    judge: str | None = Field(None, description="The judge's label; None: any judge.")
    score: float | None = Field(None, ge=0, le=1, description="The verdict's score.")
    p_a: float | None = Field(None, ge=0, le=1, description="Order-averaged P(A better).")
    said: str = Field(description="The judge's winner.")
    label: str = Field(description="The person's winner.")
    case_id: str | None = Field(None, min_length=1, description="The pair's case.")
    variant_a: str = Field("", description="The pair's first variant.")
    variant_b: str = Field("", description="The pair's second variant.")
    repeat: int = Field(0, ge=0, description="The pair's repeat.")
    _where: str = PrivateAttr("")

    @field_validator("source")
    @classmethod
    def _allowed_source(cls, value: str) -> str:
        check_source(value)  # MT-Bench refused before the row's other fields are read
        return value

    @field_validator("said")
    @classmethod
    def _known_said(cls, value: str) -> str:
        if value not in SAID_WINNERS:
            raise ValueError(f"must be one of {', '.join(SAID_WINNERS)}, got {value!r}")
        return value

    @field_validator("label")
    @classmethod
    def _known_label(cls, value: str) -> str:
        if value not in LOG_WINNERS:
            raise ValueError(f"must be one of {', '.join(LOG_WINNERS)}, got {value!r}")
        return value

    @model_validator(mode="after")
    def _one_score(self) -> LabelledRow:
        if (self.score is None) == (self.p_a is None):
            raise ValueError("give exactly one of score and p_a")
        return self

    def labelled(self) -> Labelled | None:
        """The row as a labelled verdict (None for a tied label)."""
        score = self.score if self.score is not None else abs(2 * float(self.p_a or 0.5) - 1)
        return label_verdict(score, self.said, self.label, self.source, self.pair())

    def pair(self) -> PairId:
        """The pair the row names, else one of its own (the file's row)."""
        if self.case_id is None:
            return PairId.of(None, f"{self.source} {self._where}", 0, "", "")
        return PairId.of(None, self.case_id, self.repeat, self.variant_a, self.variant_b)


def read_labelled(path: str | Path) -> list[LabelledRow]:
    """Every row of a labelled-verdicts file.

    Raises:
        InputError: naming the file, the line and the field of the first bad row.
    """
    read = read_json_rows(path, kind="labelled-verdicts file")
    rows = []
    for number, raw in read.rows:
        where = f"{'row' if read.listed else 'line'} {number}"
        check_row_format("labelled-verdicts file", raw, LABELLED_FORMAT, file=str(path), at=where)
        try:
            row = LabelledRow.model_validate(raw)
        except ValidationError as exc:
            raise input_error(exc, file=str(path), case=where) from None
        except InputError as exc:
            raise InputError(exc.message, file=str(path), case=where, field="source") from None
        row._where = f"{path} {where}"
        rows.append(row)
    return rows


def labelled_for(rows: Sequence[LabelledRow], judge_label: str) -> list[Labelled]:
    """The rows that calibrate one judge (its label, or no judge named), as labelled verdicts."""
    found = (row.labelled() for row in rows if row.judge in (None, judge_label))
    return [item for item in found if item is not None]

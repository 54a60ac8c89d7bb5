"""Human-preference sets: pairs of answers to one question, each with the answer people chose.

A set is a folder of files the rest of the arena already reads: two answer files
(``output-1.jsonl``, ``output-2.jsonl``: arena JSONL, one per side, for ``arena judge
--outputs``), the people's votes (``votes.jsonl``: battle-log rows, for ``arena agree``), the
held-out ids (``held_out.json``, drawn once and stored) and ``SOURCE.json`` (where the pairs
come from). The shipped set is LLMBar's short pairs (``data/human-preference/llmbar``, MIT):
calibrate on :meth:`PreferenceSet.calibration`, report on :meth:`PreferenceSet.held_out`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arena.errors import InputError
from arena.outputs._lines import json_document, json_lines
from arena.outputs._readers import read_answer_file
from arena.paths import data_dir

SIDES = ("output-1.jsonl", "output-2.jsonl")
VOTES = "votes.jsonl"
HELD_OUT = "held_out.json"
SOURCE = "SOURCE.json"


class LabelledPair(BaseModel):
    """One question, two answers and the one people preferred (``1`` or ``2``; ``0``: people
    called it a tie, in a set with ties such as PandaLM's)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    question: str
    answer_1: str
    answer_2: str
    preferred: Literal[0, 1, 2]
    held_out: bool = Field(description="kept out of calibration; report on it")


class PreferenceSet(BaseModel):
    """A labelled set: its pairs in file order and where they come from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str
    models: tuple[str, str] = Field(description="the model names of side 1 and side 2")
    pairs: tuple[LabelledPair, ...]
    source: dict[str, Any] = Field(default_factory=dict)

    def calibration(self) -> list[LabelledPair]:
        """The pairs a judge may be fitted or tuned on."""
        return [p for p in self.pairs if not p.held_out]

    def held_out(self) -> list[LabelledPair]:
        """The pairs kept out of calibration: report agreement on these."""
        return [p for p in self.pairs if p.held_out]


def shipped_set_dir() -> Path:
    """The folder of the shipped set (LLMBar's short pairs)."""
    return data_dir() / "human-preference" / "llmbar"


def _votes(path: Path, models: tuple[str, str]) -> dict[str, Literal[0, 1, 2]]:
    preferred: dict[str, Literal[0, 1, 2]] = {}
    for line, row in json_lines(path):
        qid = str(row.get("question_id", ""))
        pair = (row.get("model_a"), row.get("model_b"))
        winner = row.get("winner")
        if pair not in (models, models[::-1]) or winner not in ("model_a", "model_b", "tie"):
            raise InputError(
                f"line {line}: expected model_a/model_b {models[0]} and {models[1]} and winner "
                "model_a, model_b or tie",
                file=str(path),
                field="winner",
            )
        if winner == "tie":
            preferred[qid] = 0
            continue
        first = (winner == "model_a") == (pair == models)
        preferred[qid] = 1 if first else 2
    return preferred


def _held_out(path: Path) -> set[str]:
    ids = json_document(path)
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise InputError("expected a JSON list of question ids", file=str(path), field="held_out")
    return set(ids)


def load_preference_set(folder: str | Path | None = None) -> PreferenceSet:
    """Read a human-preference set (default: the shipped one).

    Raises:
        InputError: a file is missing or malformed, or a pair lacks an answer or a vote
            (the message names the file, the question and the field).
    """
    root = Path(folder) if folder is not None else shipped_set_dir()
    one, two = (read_answer_file(root / side) for side in SIDES)
    models = (one.model, two.model)
    votes = _votes(root / VOTES, models)
    held = _held_out(root / HELD_OUT)
    pairs = []
    for qid, answer in one.answers.items():
        other = two.answers.get(qid)
        if other is None:
            raise InputError("no answer on side 2", file=str(root / SIDES[1]), case=qid)
        if qid not in votes:
            raise InputError("no vote", file=str(root / VOTES), case=qid, field="winner")
        pairs.append(
            LabelledPair(
                id=qid,
                question=one.questions[qid].text,
                answer_1=answer.text,
                answer_2=other.text,
                preferred=votes[qid],
                held_out=qid in held,
            )
        )
    unknown = held - {p.id for p in pairs}
    if unknown:
        raise InputError(
            f"held-out ids with no pair: {', '.join(sorted(unknown)[:5])}",
            file=str(root / HELD_OUT),
            field="held_out",
        )
    source_file = root / SOURCE
    source = json_document(source_file) if source_file.exists() else {}
    return PreferenceSet(path=str(root), models=models, pairs=tuple(pairs), source=source)

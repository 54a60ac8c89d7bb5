"""What an answer file holds once read: questions, and each file's answers to them."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Question(BaseModel):
    """One question answered by the files; ``expected`` are facts a good answer states."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    text: str
    reference: str | None = None
    expected: tuple[str, ...] = ()
    category: str | None = None


class Answer(BaseModel):
    """One answer of one file to one question."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    question_id: str
    text: str


class AnswerFile(BaseModel):
    """One file of answers made elsewhere: one variant of the run it becomes."""

    model_config = ConfigDict(extra="forbid")

    path: str
    model: str
    answers: dict[str, Answer]
    questions: dict[str, Question] = Field(
        default_factory=dict, description="Questions the file itself states (our JSONL, alpaca)."
    )

"""Readers of answer files made elsewhere, each format to :class:`AnswerFile`.

- arena JSONL: ``{"question_id", "question", "answer", "model"?, "reference"?, "expected"?}``;
- alpaca_eval ``model_outputs.json``: a list of ``{"instruction", "output", "generator"}``;
- FastChat MT-Bench ``model_answer/MODEL.jsonl``: ``{"question_id", "model_id", "choices":
  [{"turns": [...]}]}``, with its ``question.jsonl`` (``{"question_id", "category", "turns",
  "reference"?}``) given as the questions file.

Every failure is an :class:`~arena.errors.InputError` naming the file, the line (or list
index) and the field.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from arena.errors import InputError
from arena.inputs.files import read_text
from arena.outputs._lines import json_document, json_lines, text_field
from arena.records.answers import Answer, AnswerFile, Question

FORMATS = ("arena", "alpaca_eval", "mt_bench")


def read_answer_file(path: str | Path, *, turn: int = 1) -> AnswerFile:
    """The answers of one file, whatever its format (told by its content). The file is read
    once, so a pipe works like a file (``<(cat answers.json)``: a JSON list is alpaca_eval's)."""
    file = str(path)
    text = read_text(path)
    suffix = Path(file).suffix.lower()
    listed = text.removeprefix("\ufeff").lstrip().startswith("[")
    if suffix == ".json" or (suffix != ".jsonl" and listed):
        return read_alpaca(path, text)
    rows = json_lines(path, text)
    first = rows[0][1]
    if "choices" in first:
        return read_mt_bench_answers(path, rows, turn=turn)
    if "answer" in first or "question" in first:
        return read_arena(path, rows)
    raise InputError(
        f"line {rows[0][0]}: not a known answer format: expected question_id, question and "
        "answer (arena JSONL), or question_id, model_id and choices (MT-Bench model_answer)",
        file=file,
    )


def _expected(row: dict[str, Any], file: str, line: int) -> tuple[str, ...]:
    value = row.get("expected")
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise InputError(
        f"line {line}: expected a string or a list of strings", file=file, field="expected"
    )


def _one_model(models: set[str], file: str) -> None:
    if len(models) > 1:
        raise InputError(
            f"one model per file, found {', '.join(sorted(models))}", file=file, field="model"
        )


def read_arena(path: str | Path, rows: list[tuple[int, dict[str, Any]]]) -> AnswerFile:
    """Our JSONL: one answer a line, with the question it answers."""
    file = str(path)
    answers, questions, models = {}, {}, set()
    for line, row in rows:
        qid = text_field(row, "question_id", file=file, line=line)
        text = text_field(row, "question", file=file, line=line)
        answer = text_field(row, "answer", file=file, line=line)
        assert qid is not None and text is not None and answer is not None
        if qid in answers:
            raise InputError(
                f"line {line}: question {qid!r} answered twice", file=file, field="question_id"
            )
        model = text_field(row, "model", file=file, line=line, required=False)
        if model:
            models.add(model)
        answers[qid] = Answer(question_id=qid, text=answer)
        questions[qid] = Question(
            id=qid,
            text=text,
            reference=text_field(row, "reference", file=file, line=line, required=False),
            expected=_expected(row, file, line),
        )
    _one_model(models, file)
    model = next(iter(models)) if models else Path(file).stem
    return AnswerFile(path=file, model=model, answers=answers, questions=questions)


def alpaca_id(instruction: str) -> str:
    """A stable question id for an alpaca_eval instruction (the files carry none)."""
    return "alpaca-" + hashlib.sha256(instruction.encode()).hexdigest()[:10]


def read_alpaca(path: str | Path, text: str | None = None) -> AnswerFile:
    """alpaca_eval's model_outputs.json: a list of {instruction, output, generator}
    (``text``: the file's text already read)."""
    file = str(path)
    doc = json_document(path, text)
    if not isinstance(doc, list) or not doc:
        raise InputError(
            "expected a non-empty JSON list of {instruction, output, generator}", file=file
        )
    answers, questions, models = {}, {}, set()
    for index, row in enumerate(doc):
        where = f"item {index}"
        if not isinstance(row, dict):
            raise InputError(f"{where}: expected a JSON object", file=file)
        instruction = text_field(row, "instruction", file=file, line=where)
        output = text_field(row, "output", file=file, line=where)
        assert instruction is not None and output is not None
        generator = text_field(row, "generator", file=file, line=where, required=False)
        if generator:
            models.add(generator)
        qid = alpaca_id(instruction)
        answers[qid] = Answer(question_id=qid, text=output)
        questions[qid] = Question(id=qid, text=instruction, category=row.get("dataset"))
    _one_model(models, file)
    model = next(iter(models)) if models else Path(file).stem
    return AnswerFile(path=file, model=model, answers=answers, questions=questions)


def read_mt_bench_answers(
    path: str | Path, rows: list[tuple[int, dict[str, Any]]], *, turn: int = 1
) -> AnswerFile:
    """FastChat's model_answer/MODEL.jsonl; the answer kept is ``turn`` (1 or 2); the turns
    before it are kept too (the judge sees the conversation so far)."""
    file = str(path)
    answers, models = {}, set()
    for line, row in rows:
        qid = text_field(row, "question_id", file=file, line=line)
        assert qid is not None
        model = text_field(row, "model_id", file=file, line=line, required=False)
        if model:
            models.add(model)
        choices = row.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise InputError(
                f"line {line}: expected a list of {{turns}}", file=file, field="choices"
            )
        turns = choices[0].get("turns")
        if not isinstance(turns, list) or not all(isinstance(t, str) for t in turns):
            raise InputError(
                f"line {line}: expected a list of strings", file=file, field="choices.0.turns"
            )
        if len(turns) < turn:
            raise InputError(
                f"line {line}: turn {turn} asked, the answer has {len(turns)}",
                file=file,
                field="choices.0.turns",
            )
        answers[qid] = Answer(question_id=qid, text=conversation_answer(turns, turn))
    _one_model(models, file)
    model = next(iter(models)) if models else Path(file).stem
    return AnswerFile(path=file, model=model, answers=answers)


def conversation_answer(turns: list[str], turn: int) -> str:
    """The answer judged at ``turn``: the answer itself, after the earlier ones if any."""
    if turn == 1:
        return turns[0]
    earlier = "\n\n".join(f"[Answer to turn {i + 1}]\n{t}" for i, t in enumerate(turns[: turn - 1]))
    return f"{earlier}\n\n[Answer to turn {turn}]\n{turns[turn - 1]}"


def read_questions(path: str | Path, *, turn: int = 1) -> dict[str, Question]:
    """A questions file: MT-Bench's question.jsonl (``turns``, ``reference``?) or arena
    JSONL rows (``question_id``, ``question``, ``reference``?, ``expected``?)."""
    file = str(path)
    questions = {}
    for line, row in json_lines(path):
        qid = text_field(row, "question_id", file=file, line=line)
        assert qid is not None
        if "turns" in row:
            question = _mt_bench_question(row, qid, file, line, turn)
        else:
            text = text_field(row, "question", file=file, line=line)
            assert text is not None
            question = Question(
                id=qid,
                text=text,
                reference=text_field(row, "reference", file=file, line=line, required=False),
                expected=_expected(row, file, line),
            )
        questions[qid] = question
    return questions


def _mt_bench_question(row: dict[str, Any], qid: str, file: str, line: int, turn: int) -> Question:
    turns = row.get("turns")
    if not isinstance(turns, list) or not all(isinstance(t, str) for t in turns) or not turns:
        raise InputError(f"line {line}: expected a list of strings", file=file, field="turns")
    if len(turns) < turn:
        raise InputError(
            f"line {line}: turn {turn} asked, the question has {len(turns)}",
            file=file,
            field="turns",
        )
    reference = row.get("reference")
    if reference is not None and (
        not isinstance(reference, list) or not all(isinstance(r, str) for r in reference)
    ):
        raise InputError(f"line {line}: expected a list of strings", file=file, field="reference")
    if turn == 1:
        text = turns[0]
    else:
        earlier = "\n".join(f"Turn {i + 1}: {t}" for i, t in enumerate(turns[: turn - 1]))
        text = f"{earlier}\nTurn {turn} (the one to judge): {turns[turn - 1]}"
    ref = reference[turn - 1] if reference and len(reference) >= turn else None
    category = row.get("category")
    return Question(
        id=qid, text=text, reference=ref, category=category if isinstance(category, str) else None
    )

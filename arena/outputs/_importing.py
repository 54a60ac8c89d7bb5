"""Store answers made elsewhere as a run: one variant per file, one case per question.

The run is then judged like any other (``arena judge``), so ratings, health, agreement,
battle exports and the app work on it. Importing the same files again resumes the same run.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import InputError
from arena.golden import GoldenCase, GoldenDataset, case_hash
from arena.outputs._readers import read_answer_file, read_questions
from arena.records.answers import AnswerFile, Question
from arena.records.results import RunResult
from arena.storage import Store
from arena.variants.variant import Variant
from arena.variants.version import content_version

#: Provider of the variants of answers read from files: nothing calls them.
PROVIDER = "answers"


def variant_name(model: str) -> str:
    """A variant name from a model name (letters, digits, ``_.-``)."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", model).strip("-_.")
    return name or "answers"


def _questions(
    files: list[AnswerFile], questions_path: str | None, turn: int
) -> dict[str, Question]:
    known: dict[str, Question] = {}
    if questions_path:
        known = read_questions(questions_path, turn=turn)
    else:
        for answer_file in files:
            for qid, question in answer_file.questions.items():
                known.setdefault(qid, question)
    for answer_file in files:
        for qid in answer_file.answers:
            if qid not in known:
                where = (
                    f"no question {qid!r} in {questions_path}"
                    if questions_path
                    else (f"question {qid!r} has no text: give --questions")
                )
                raise InputError(where, file=answer_file.path, field="question_id")
    return known


def _case(question: Question) -> GoldenCase:
    return GoldenCase.model_validate(
        {
            "id": question.id,
            "input": question.text,
            "category": "happy_path",
            "reference_answer": question.reference,
            "expected_output_contains": list(question.expected),
            "tags": [question.category] if question.category else [],
            "max_steps": 50,
        }
    )


def _variants(files: list[AnswerFile]) -> list[Variant]:
    variants: dict[str, Variant] = {}
    sources: dict[str, str] = {}
    for answer_file in files:
        name = variant_name(answer_file.model)
        if name in variants:
            raise InputError(
                f"model {answer_file.model!r} is also the model of {sources[name]}: one "
                "variant per file",
                file=answer_file.path,
                field="model",
            )
        sources[name] = answer_file.path
        content = {q: a.model_dump(mode="json") for q, a in answer_file.answers.items()}
        digest = hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:12]
        variant = Variant.model_validate(
            {
                "name": name,
                "description": f"answers read from {Path(answer_file.path).name} ({digest})",
                "model": {"spec": f"{PROVIDER}:{name}"},
                "tools": [],
            }
        )
        variants[name] = variant.with_version(content_version(variant, content))
    return list(variants.values())


@dataclass(frozen=True)
class LoadedOutputs:
    """Answer files read and checked, ready to be stored as a run."""

    dataset: GoldenDataset
    variants: list[Variant]
    files: list[AnswerFile]
    paths: list[str]
    turn: int


def load_outputs(
    paths: Sequence[str], *, questions: str | None = None, turn: int = 1
) -> LoadedOutputs:
    """Read and check every answer file (and the questions file); InputError on bad input."""
    if turn not in (1, 2):
        raise InputError(f"turn must be 1 or 2, got {turn}", field="turn")
    if len(paths) < 2:
        raise InputError("give at least two answer files to compare", field="outputs")
    files = [read_answer_file(p, turn=turn) for p in paths]
    known = _questions(files, questions, turn)
    answered = [q for q in known if any(q in f.answers for f in files)]
    dataset = GoldenDataset.model_validate(
        {
            "name": "outputs",
            "description": "answers made elsewhere, read by arena judge --outputs",
            "available_tools": [],
            "test_cases": [_case(known[q]).model_dump(mode="json") for q in answered],
        }
    )
    return LoadedOutputs(dataset, _variants(files), files, [str(p) for p in paths], turn)


def import_outputs(
    store: Store, paths: Sequence[str], *, questions: str | None = None, turn: int = 1
) -> int:
    """Read every answer file (nothing stored on bad input) and store them as a run; its id."""
    return store_outputs(store, load_outputs(paths, questions=questions, turn=turn))


def store_outputs(store: Store, loaded: LoadedOutputs) -> int:
    """Store answer files read by :func:`load_outputs` as a run (the same files: the same
    run); the run's id."""
    return _store_run(
        store, loaded.dataset, loaded.variants, loaded.files, loaded.paths, loaded.turn
    )


def _store_run(
    store: Store,
    dataset: GoldenDataset,
    variants: list[Variant],
    files: list[AnswerFile],
    paths: list[str],
    turn: int,
) -> int:
    from arena.records.provenance import provenance

    dataset_id = store.ensure_dataset(dataset, "outputs")
    for variant in variants:
        store.ensure_variant(variant)
    key = hashlib.sha256(
        json.dumps(
            {"outputs": [v.version_hash for v in variants], "dataset": dataset_id, "turn": turn}
        ).encode()
    ).hexdigest()[:32]
    config = {
        "variants": {v.name: v.version_hash for v in variants},
        "tier": "all",
        "cases": [c.id for c in dataset.test_cases],
        "repeats": 1,
        "outputs": paths,
        "turn": turn,
        "provenance": provenance(),
    }
    run_id, _ = store.open_run(key, dataset_id, config)
    cases = {c.id: c for c in dataset.test_cases}
    for variant, answer_file in zip(variants, files, strict=True):
        for qid, answer in answer_file.answers.items():
            store.save_result(
                RunResult(
                    run_id=run_id,
                    variant=variant.name,
                    variant_hash=variant.version_hash,
                    case_id=qid,
                    case_hash=case_hash(cases[qid]),
                    output=answer.text,
                )
            )
    store.finish_run(run_id)
    return run_id

"""Answers made elsewhere (arena JSONL, alpaca_eval, FastChat MT-Bench), stored as a run.

Public names load lazily, so importing this package does not load the database (the
``answers:`` model provider of a variant read from a file is
:mod:`arena.models.providers._answers`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real names, for type checkers
    from arena.outputs._importing import (
        PROVIDER,
        LoadedOutputs,
        import_outputs,
        load_outputs,
        store_outputs,
        variant_name,
    )
    from arena.outputs._preferences import (
        LabelledPair,
        PreferenceSet,
        load_preference_set,
        shipped_set_dir,
    )
    from arena.outputs._readers import FORMATS, read_answer_file, read_questions
    from arena.records.answers import Answer, AnswerFile, Question

_EXPORTS = {
    "PROVIDER": "arena.outputs._importing",
    "LoadedOutputs": "arena.outputs._importing",
    "import_outputs": "arena.outputs._importing",
    "load_outputs": "arena.outputs._importing",
    "store_outputs": "arena.outputs._importing",
    "variant_name": "arena.outputs._importing",
    "LabelledPair": "arena.outputs._preferences",
    "PreferenceSet": "arena.outputs._preferences",
    "load_preference_set": "arena.outputs._preferences",
    "shipped_set_dir": "arena.outputs._preferences",
    "FORMATS": "arena.outputs._readers",
    "read_answer_file": "arena.outputs._readers",
    "read_questions": "arena.outputs._readers",
    "Answer": "arena.records.answers",
    "AnswerFile": "arena.records.answers",
    "Question": "arena.records.answers",
}

__all__ = [
    "FORMATS",
    "PROVIDER",
    "Answer",
    "AnswerFile",
    "LabelledPair",
    "LoadedOutputs",
    "PreferenceSet",
    "Question",
    "import_outputs",
    "load_outputs",
    "load_preference_set",
    "read_answer_file",
    "read_questions",
    "shipped_set_dir",
    "store_outputs",
    "variant_name",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.outputs' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

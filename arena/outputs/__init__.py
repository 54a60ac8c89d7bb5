"""Answers made elsewhere (arena JSONL, alpaca_eval, FastChat MT-Bench), stored as a run."""

from __future__ import annotations

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

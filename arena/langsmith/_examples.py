"""Golden cases as LangSmith examples and back.

An example's ``inputs`` hold the query (``{"query": ...}``), its ``outputs`` (reference
outputs) the case's expectations, and its ``metadata`` the case id, category, tier,
difficulty, tags and the rest of the case's bookkeeping. Examples made elsewhere (a LangSmith
dataset built from production traces) are read leniently: the query from ``query``,
``input``, ``question``, ``prompt``, a chat ``messages`` list or the only string input; the
reference answer from ``reference_answer``, ``answer``, ``output``, ``expected`` or the only
string output.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.errors import InputError
from arena.golden._models import GoldenCase, GoldenDataset

INPUT_KEY = "query"
REFERENCE_FIELDS = ("reference_answer",)
"""Expectations no check scores (the judges read the reference answer)."""


def expectation_fields() -> tuple[str, ...]:
    """The case fields an example's reference outputs hold: every registered golden check's
    fields (its LangSmith mapping), then :data:`REFERENCE_FIELDS`."""
    from arena.scoring.checks import check_fields

    return (*check_fields(), *REFERENCE_FIELDS)


METADATA_FIELDS = (
    "category",
    "tier",
    "difficulty",
    "tags",
    "added",
    "reason",
    "notes",
    "timeout_s",
)
QUERY_KEYS = ("query", "input", "question", "prompt", "text")
ANSWER_KEYS = ("reference_answer", "answer", "output", "expected", "response", "reference")


def case_to_example(case: GoldenCase, dataset: GoldenDataset | None = None) -> dict[str, Any]:
    """The LangSmith example of a case: ``{"inputs", "outputs", "metadata"}``."""
    expectations = case.model_dump(
        mode="json", include=set(expectation_fields()), exclude_defaults=True
    )
    expectations["max_steps"] = case.max_steps
    metadata: dict[str, Any] = {"case_id": case.id}
    metadata.update(
        case.model_dump(mode="json", include=set(METADATA_FIELDS), exclude_defaults=True)
    )
    metadata.update(
        {
            "category": case.category,
            "tier": case.tier.value,
            "difficulty": case.difficulty.value,
        }
    )
    if dataset is not None:
        metadata.update(
            {
                "dataset": dataset.name,
                "dataset_version": dataset.version,
                "available_tools": list(dataset.available_tools),
            }
        )
    return {"inputs": {INPUT_KEY: case.input}, "outputs": expectations, "metadata": metadata}


def case_from_reference(
    inputs: Mapping[str, Any],
    reference_outputs: Mapping[str, Any] | None,
    case_id: str = "langsmith-example",
) -> GoldenCase:
    """The golden case an evaluator scores against: the query and the expectations."""
    fields = expectation_fields()
    expectations = {k: v for k, v in (reference_outputs or {}).items() if k in fields}
    raw = {"id": case_id, "input": query_of(inputs), "category": "happy_path", **expectations}
    return GoldenCase.model_validate(raw)


def query_of(inputs: Mapping[str, Any]) -> str:
    """The user query of an example's inputs (see the module docstring); '' if none."""
    for key in QUERY_KEYS:
        value = inputs.get(key)
        if isinstance(value, str):
            return value
    messages = inputs.get("messages")
    if isinstance(messages, list):
        for message in reversed(messages):
            if isinstance(message, Mapping) and message.get("role") in ("user", "human"):
                return str(message.get("content", ""))
    strings = [v for v in inputs.values() if isinstance(v, str)]
    return strings[0] if len(strings) == 1 else ""


def _answer_of(outputs: Mapping[str, Any]) -> str | None:
    for key in ANSWER_KEYS:
        value = outputs.get(key)
        if isinstance(value, str) and value.strip():
            return value
    strings = [v for v in outputs.values() if isinstance(v, str) and v.strip()]
    return strings[0] if len(strings) == 1 else None


def example_to_case(
    example: Mapping[str, Any],
    *,
    default_id: str,
    default_category: str,
    default_tier: str,
    source: str,
    where: str,
) -> dict[str, Any]:
    """A golden case (as JSON) from one example; ``where`` names it in errors (``line 3``).

    Arena's own examples come back as the case they were; others become a case with the
    query, the reference answer and the given category and tier.
    """
    inputs = example.get("inputs")
    if not isinstance(inputs, Mapping):
        raise InputError(
            "an example needs an 'inputs' object", file=source, at=where, field="inputs"
        )
    outputs = example.get("outputs", example.get("reference_outputs")) or {}
    metadata = example.get("metadata") or {}
    if not isinstance(outputs, Mapping) or not isinstance(metadata, Mapping):
        raise InputError("'outputs' and 'metadata' must be objects", file=source, at=where)
    query = query_of(inputs)
    if not query and not any(isinstance(inputs.get(k), str) for k in QUERY_KEYS):
        raise InputError(
            f"no query found in inputs (keys: {', '.join(inputs) or 'none'}); "
            f"use one of {', '.join(QUERY_KEYS)}",
            file=source,
            at=where,
            field="inputs",
        )
    case: dict[str, Any] = {
        "id": str(metadata.get("case_id") or default_id),
        "input": query,
        "category": metadata.get("category", default_category),
        "tier": metadata.get("tier", default_tier),
    }
    case.update({k: v for k, v in metadata.items() if k in METADATA_FIELDS and k not in case})
    fields = expectation_fields()
    expectations = {k: v for k, v in outputs.items() if k in fields}
    if expectations:
        case.update(expectations)
    elif (answer := _answer_of(outputs)) is not None:
        case["reference_answer"] = answer
    if example.get("id") and "case_id" not in metadata:
        case.setdefault("notes", f"Imported from LangSmith example {example['id']}.")
    return case

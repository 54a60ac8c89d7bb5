"""Import LangSmith examples into a golden dataset file, validated like any other.

Into a new file: the dataset is created (an arena export comes back with its name, version
and cases; foreign examples become ``pending`` cases ``LS-001``, ``LS-002``, ...). Into an
existing file: examples whose case id or query is already there are skipped, the others are
appended, and the version is bumped with the content hash recorded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from arena.curation._grow import normalize_query
from arena.golden._models import GoldenDataset
from arena.golden._versioning import edit_lock, read_raw, save_edit
from arena.langsmith._examples import example_to_case
from arena.langsmith._files import WHERE

_UNNAMED = "LS-?"  # until the example is added: skipped ones use no id


class ImportReport(BaseModel):
    """What an import did: the dataset written, cases added and examples skipped (why)."""

    dataset: GoldenDataset
    path: str
    created: bool
    added: list[str] = Field(default_factory=list)
    skipped: dict[str, str] = Field(default_factory=dict)


def _tools(examples: Sequence[dict[str, Any]], given: Sequence[str] | None) -> list[str]:
    if given:
        return list(given)
    seen: dict[str, None] = {}
    for example in examples:
        for tool in (example.get("metadata") or {}).get("available_tools") or []:
            seen[str(tool)] = None
    if seen:
        return list(seen)
    from arena.defaults import TOOL_NAMES

    return list(TOOL_NAMES)


def _next_ids(existing: Sequence[str]) -> Any:
    numbers = [int(m.group(1)) for cid in existing if (m := re.fullmatch(r"LS-(\d+)", cid))]
    n = max(numbers, default=0)
    while True:
        n += 1
        yield f"LS-{n:03d}"


def import_examples(
    examples: Sequence[dict[str, Any]],
    path: str | Path,
    *,
    source: str,
    name: str | None = None,
    available_tools: Sequence[str] | None = None,
    category: str = "happy_path",
    tier: str = "pending",
) -> ImportReport:
    """Write ``examples`` into the golden file ``path`` (created or extended, see above)."""
    with edit_lock(path):  # read, extended and saved with no other edit between
        return _import(examples, Path(path), source, name, available_tools, category, tier)


def _import(
    examples: Sequence[dict[str, Any]],
    target: Path,
    source: str,
    name: str | None,
    available_tools: Sequence[str] | None,
    category: str,
    tier: str,
) -> ImportReport:
    created = not target.exists()
    raw = _new_raw(examples, source, name, available_tools) if created else read_raw(target)
    have_ids = {str(c.get("id")) for c in raw["test_cases"]}
    have_queries = {
        normalize_query(str(c.get("input", ""))): str(c.get("id")) for c in raw["test_cases"]
    }
    ids = _next_ids(list(have_ids))
    added: list[str] = []
    skipped: dict[str, str] = {}
    for index, example in enumerate(examples):
        where = str(example.get(WHERE) or f"example #{index}")
        case = example_to_case(
            example,
            default_id=_UNNAMED,
            default_category=category,
            default_tier=tier,
            source=source,
            where=where,
        )
        label = where if case["id"] == _UNNAMED else case["id"]
        query = normalize_query(str(case["input"]))
        if case["id"] in have_ids:
            skipped[label] = "id already in the dataset"
        elif query in have_queries:
            skipped[label] = f"same query as case {have_queries[query]}"
        else:
            if case["id"] == _UNNAMED:
                case["id"] = next(ids)
            raw["test_cases"].append(case)
            have_ids.add(case["id"])
            have_queries[query] = case["id"]
            added.append(case["id"])
    if not added and not created:
        from arena.golden._loader import load_dataset

        return ImportReport(
            dataset=load_dataset(target), path=str(target), created=False, skipped=skipped
        )
    change = f"import {len(added)} case(s) from {source}"
    dataset = save_edit(target, raw, change, bump=not created)
    return ImportReport(
        dataset=dataset, path=str(target), created=created, added=added, skipped=skipped
    )


def _new_raw(
    examples: Sequence[dict[str, Any]],
    source: str,
    name: str | None,
    available_tools: Sequence[str] | None,
) -> dict[str, Any]:
    first = next((e.get("metadata") or {} for e in examples), {})
    return {
        "name": name or first.get("dataset") or Path(source).stem or "imported",
        "version": str(first.get("dataset_version") or "1.0.0"),
        "description": f"Imported from LangSmith ({source}).",
        "available_tools": _tools(examples, available_tools),
        "test_cases": [],
    }

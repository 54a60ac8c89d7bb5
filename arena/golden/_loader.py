"""Load a golden dataset file, failing with an error that names file, case and field."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from arena.errors import InputError
from arena.golden._models import GoldenCase, GoldenDataset, check_case_id, unknown_category
from arena.inputs.files import load_json, read_text
from arena.inputs.validation import input_error


def load_dataset(path: str | Path) -> GoldenDataset:
    """Read and validate a golden dataset JSON file.

    Args:
        path: the dataset's JSON file.

    Returns:
        The dataset, every case validated (categories, tiers, ids, patterns, tools).

    Raises:
        InputError: naming the file, the case id and the field, for malformed JSON (or a file
            that is missing, a folder, not UTF-8, too deeply nested), unknown categories or
            tiers, unsafe or duplicate ids, invalid regular expressions and unavailable tools.
    """
    file = str(path)
    raw = _read(path)
    if not isinstance(raw, dict):
        raise InputError("expected a JSON object with 'test_cases'", file=file)
    cases_raw = raw.get("test_cases")
    if not isinstance(cases_raw, list):
        raise InputError("missing or not a list", file=file, field="test_cases")
    cases = [_load_case(file, index, item) for index, item in enumerate(cases_raw)]
    header = {k: v for k, v in raw.items() if k != "test_cases"}
    try:
        dataset = GoldenDataset.model_validate({**header, "test_cases": []})
    except ValidationError as exc:
        raise input_error(exc, file=file) from None
    dataset = dataset.model_copy(update={"test_cases": cases})
    _check_unique_ids(file, cases)
    _check_categories(file, dataset)
    _check_tools(file, dataset)
    return dataset


def _load_case(file: str, index: int, item: Any) -> GoldenCase:
    label = _label(item.get("id") if isinstance(item, dict) else None, index)
    if not isinstance(item, dict):
        raise InputError("a test case must be a JSON object", file=file, case=label)
    try:
        return GoldenCase.model_validate(item)
    except ValidationError as exc:
        raise input_error(exc, file=file, case=label) from None


_IN_CASE = re.compile(r"test_cases\.(\d+)(?:\.(.+))?")


def _read(path: str | Path) -> Any:
    """The file's JSON; a refusal inside a case (a key given twice, ``NaN``) names the case
    and its field, not the path ``test_cases.0.field``."""
    try:
        return load_json(path)
    except InputError as exc:
        found = _IN_CASE.fullmatch(exc.field or "")
        if found is None:
            raise
        index = int(found.group(1))
        try:  # read again leniently, only to name the case by its id
            case_id = json.loads(read_text(path))["test_cases"][index].get("id")
        except (ValueError, TypeError, LookupError, AttributeError, InputError):
            case_id = None
        raise InputError(
            exc.message, file=exc.file, case=_label(case_id, index), field=found.group(2)
        ) from None


def _label(case_id: Any, index: int) -> str:
    """How errors name a case: its id when that is a safe id, else its position."""
    try:
        return check_case_id(case_id) if isinstance(case_id, str) else f"#{index}"
    except ValueError:
        return f"#{index}"


def _check_unique_ids(file: str, cases: list[GoldenCase]) -> None:
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise InputError("duplicate id", file=file, case=case.id, field="id")
        seen.add(case.id)


def _check_categories(file: str, dataset: GoldenDataset) -> None:
    allowed = dataset.category_names
    for case in dataset.test_cases:
        if case.category not in allowed:
            message = unknown_category(case, allowed).split(": ", 1)[1]
            raise InputError(message, file=file, case=case.id, field="category")


_TOOL_FIELDS = (
    "expected_tools",
    "expected_order",
    "forbidden_tools",
    "expected_args",
    "acceptable_tools",
    "expected_calls",
    "allow_extra_calls",
)


def _named_tools(case: GoldenCase) -> list[tuple[str, set[str]]]:
    """Every field of ``case`` naming tools, by its path, with the names it holds."""
    named = []
    for field in _TOOL_FIELDS:
        value = getattr(case, field)
        if field == "acceptable_tools":
            names = {n for alt in value for n in alt}
        elif field == "expected_calls":
            names = {call.tool for call in value}
        else:
            names = set(value)
        named.append((field, names))
    if case.conversation is not None:
        named += [(field, set(names)) for field, names in case.conversation.named_tools()]
    return named


def _check_tools(file: str, dataset: GoldenDataset) -> None:
    available = set(dataset.available_tools)
    for case in dataset.test_cases:
        for field, names in _named_tools(case):
            unknown = sorted(names - available)
            if unknown:
                raise InputError(
                    f"tool(s) {', '.join(unknown)} not in available_tools "
                    f"({', '.join(sorted(available))})",
                    file=file,
                    case=case.id,
                    field=field,
                )


def case_hash(case: GoldenCase) -> str:
    """A short content hash of a case: a changed case is a different case for caching."""
    blob = json.dumps(case.model_dump(mode="json"), sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def dataset_hash(dataset: GoldenDataset) -> str:
    """A short content hash of a whole dataset."""
    blob = json.dumps(dataset.model_dump(mode="json"), sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:12]

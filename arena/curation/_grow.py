"""Grow a golden set from real failures: add a stored result as a pending case, promote cases.

A new case starts in the ``pending`` tier (run and shown, never counted) with the query, the
tools it should and should not use as a starting point (taken from the case the result
answered), the date it was added and why. Once reviewed it is promoted to ``standard`` or
``critical``. Each edit bumps the dataset's version and records its content hash
(:mod:`arena.golden._versioning`).
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import InputError
from arena.golden._models import Category, GoldenCase, GoldenDataset, Tier
from arena.golden._versioning import edit_lock, read_raw, save_edit, today

if TYPE_CHECKING:
    from arena.records.results import RunResult
    from arena.storage import Store

CATEGORY_PREFIX: dict[str, str] = {
    Category.HAPPY_PATH: "HP",
    Category.EDGE_CASE: "EC",
    Category.AMBIGUOUS: "AM",
    Category.MULTI_STEP: "MS",
    Category.GRACEFUL_FAILURE: "GF",
}
PROMOTE_TIERS = (Tier.STANDARD.value, Tier.CRITICAL.value)


def normalize_query(text: str) -> str:
    """A query compared for duplicates: case-folded, whitespace collapsed, end punctuation off."""
    return re.sub(r"\s+", " ", text.casefold()).strip().strip(".?!").strip()


def next_case_id(dataset: GoldenDataset, category: str) -> str:
    """The next free id of the category's prefix: ``GF-007`` -> ``GF-008`` (a dataset's own
    category is prefixed by its first two letters and digits, upper-cased)."""
    own = "".join(ch for ch in category if ch.isalnum())[:2].upper() or "C"
    prefix = CATEGORY_PREFIX.get(category, own)
    numbers = [
        int(m.group(1)) for c in dataset.test_cases if (m := re.fullmatch(rf"{prefix}-(\d+)", c.id))
    ]
    return f"{prefix}-{max(numbers, default=0) + 1:03d}"


def case_from_result(
    result: RunResult,
    source: GoldenCase,
    *,
    case_id: str,
    reason: str,
    query: str | None = None,
    tags: list[str] | None = None,
    added: date | None = None,
) -> dict[str, Any]:
    """A new pending case (as JSON) from a stored result and the case it answered.

    The query is the result's (unless ``query`` rephrases it); the expected, acceptable
    and forbidden tools come from the source case, or, when it expected none, the tools the
    run called without an error, as a starting point to review. A conversation case keeps
    its conversation (:func:`conversation_from_result`).
    """
    if not reason.strip():
        raise InputError("give the reason the case is added", field="reason")
    called = [s.tool for s in result.steps if s.error is None]
    expected = list(source.expected_tools) or list(dict.fromkeys(called))
    status = f"error {result.error!r}" if result.error else f"answer {result.output[:200]!r}"
    notes = (
        f"From result {result.id} (run {result.run_id}, variant {result.variant} "
        f"{result.variant_hash}, case {result.case_id}, repeat {result.repeat}): called "
        f"{result.tool_names or 'no tool'}; {status}. Review the expectations before "
        "promoting."
    )
    case: dict[str, Any] = {
        "id": case_id,
        "input": source.input if query is None else query,
        "category": source.category,
        "tier": Tier.PENDING.value,
        "difficulty": source.difficulty.value,
        "expected_tools": expected,
    }
    for field in ("expected_order", "acceptable_tools", "forbidden_tools"):
        value = getattr(source, field)
        if value:
            case[field] = list(value)
    case.update(
        {
            "max_steps": source.max_steps,
            "notes": notes,
            "added": (added or today()).isoformat(),
            "reason": reason.strip(),
        }
    )
    if tags:
        case["tags"] = list(tags)
    conversation = conversation_from_result(result, source)
    if conversation is not None:
        case["conversation"] = conversation
    return case


def conversation_from_result(result: RunResult, source: GoldenCase) -> dict[str, Any] | None:
    """The new case's conversation (JSON) when ``source`` is a conversation case.

    A scripted source keeps its script (its ``when`` checks included). A simulated one
    becomes a script of what its user actually said in the result's dialogue, so the case
    replays that dialogue's user side without a model (it stays simulated when the dialogue
    has no second user turn). Per-turn expectations are kept for the turns the new
    conversation still has.
    """
    conversation = source.conversation
    if conversation is None:
        return None
    kept = conversation.model_dump(mode="json", exclude_defaults=True)
    dialogue = result.dialogue
    if conversation.user is None or dialogue is None or len(dialogue.turns) < 2:
        return kept
    turns = [{"user": t.user} for t in dialogue.turns[1:]]
    expect = [
        e.model_dump(mode="json", exclude_defaults=True)
        for e in conversation.expect
        if e.turn <= len(dialogue.turns)
    ]
    return {"turns": turns, **({"expect": expect} if expect else {})}


def case_query(case: dict[str, Any]) -> str:
    """What a case (as JSON) asks, for the duplicate check: its input, and for a
    conversation its scripted turns or its simulated user's goal."""
    text = str(case.get("input", ""))
    conversation = case.get("conversation")
    if not isinstance(conversation, dict):
        return text
    user = conversation.get("user")
    if isinstance(user, dict):
        return f"{text} / goal: {user.get('goal', '')}"
    turns = conversation.get("turns") or []
    return " / ".join([text, *(str(t.get("user", "")) for t in turns if isinstance(t, dict))])


def add_case(path: str | Path, case: dict[str, Any], change: str) -> GoldenDataset:
    """Append a case to a dataset file (unique id and query), bump version, record hash."""
    with edit_lock(path):
        return _add_case(path, case, change)


def _add_case(path: str | Path, case: dict[str, Any], change: str) -> GoldenDataset:
    raw = read_raw(path)
    cases: list[dict[str, Any]] = raw["test_cases"]
    for other in cases:
        if other.get("id") == case["id"]:
            raise InputError(
                "id already used in this dataset", file=str(path), case=case["id"], field="id"
            )
        if normalize_query(case_query(other)) == normalize_query(case_query(case)):
            raise InputError(
                f"the same query is already case {other.get('id')}; give a "
                "rephrased query (--input) or edit that case",
                file=str(path),
                case=case["id"],
                field="input",
            )
    raw["test_cases"] = [*cases, case]
    return save_edit(path, raw, change)


def add_from_result(
    store: Store,
    result_id: int,
    dataset_path: str | Path,
    reason: str,
    *,
    case_id: str | None = None,
    query: str | None = None,
    tags: list[str] | None = None,
) -> tuple[GoldenDataset, GoldenCase]:
    """Turn stored result ``result_id`` into a new pending case of ``dataset_path``."""
    result = store.result(result_id)
    assert result.run_id is not None
    source = store.run_dataset(result.run_id).case(result.case_id)
    from arena.golden._loader import load_dataset

    with edit_lock(dataset_path):  # the next id is read under the lock the edit holds
        target = load_dataset(dataset_path)
        new_id = case_id or next_case_id(target, source.category)
        case = case_from_result(
            result, source, case_id=new_id, reason=reason, query=query, tags=tags
        )
        change = f"add {new_id} (pending) from result {result_id}: {reason.strip()}"
        dataset = add_case(dataset_path, case, change)
    return dataset, dataset.case(new_id)


def promote_case(path: str | Path, case_id: str, tier: str) -> GoldenDataset:
    """Move a case to the standard or critical tier; bump the version, record the hash."""
    if tier not in PROMOTE_TIERS:
        raise InputError(
            f"promote to one of {', '.join(PROMOTE_TIERS)}, not {tier!r}", field="tier"
        )
    with edit_lock(path):
        return _promote(path, case_id, tier)


def _promote(path: str | Path, case_id: str, tier: str) -> GoldenDataset:
    raw = read_raw(path)
    for case in raw["test_cases"]:
        if case.get("id") == case_id:
            old = case.get("tier", Tier.STANDARD.value)
            if old == tier:
                raise InputError(
                    f"already in the {tier} tier", file=str(path), case=case_id, field="tier"
                )
            case["tier"] = tier
            return save_edit(path, raw, f"promote {case_id}: {old} -> {tier}")
    raise InputError("no such case in this dataset", file=str(path), case=case_id, field="id")

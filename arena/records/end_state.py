"""What an agent's run changed in the state it exposes: the end state as evidence.

A factory that lends the arena a snapshot of its state (``ctx.expose_state(snapshot)``, see
:class:`arena.agents.AgentContext`) has it taken right after the factory built the agent and
again after the run (a conversation: after its last turn). A snapshot is
``{collection: {record_id: {field: value}}}`` with JSON-like values; a record is named by its
path ``collection/record_id``. :func:`diff_snapshots` compares two into a :class:`StateDiff`:
each record added, removed or changed, with the fields that changed (before and after), and
the end values of the fields a case's ``expected_state`` names (so a field that must hold a
value is checked even when the run left it as it was).

What is stored is bounded and has no secrets: string values are redacted
(:func:`arena.secrets.redact`) and cut to :data:`VALUE_LIMIT` characters, at most
:data:`RECORD_LIMIT` changed records are kept (``dropped`` counts the others) and at most
:data:`FIELD_LIMIT` fields of each.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arena.secrets import redact

RECORD_LIMIT = 200
"""The most changed records kept per result."""
FIELD_LIMIT = 50
"""The most changed fields kept per record."""
VALUE_LIMIT = 1000
"""The most characters of one string value kept (after redaction)."""

Snapshot = dict[str, dict[str, dict[str, Any]]]
"""A state snapshot: collection -> record id -> field -> value."""


class RecordChange(BaseModel):
    """One record the run added, removed or changed, with its changed fields."""

    model_config = ConfigDict(extra="forbid")

    record: str = Field(description="The record's path, ``collection/record_id``.")
    change: Literal["added", "removed", "changed"]
    before: dict[str, Any] = Field(
        default_factory=dict,
        description="The changed fields' values at the start (a field absent here was absent).",
    )
    after: dict[str, Any] = Field(
        default_factory=dict,
        description="The changed fields' values at the end (a field absent here was removed).",
    )

    def field_changes(self) -> list[tuple[str, Any, Any, bool, bool]]:
        """Each changed field: name, before, after, whether it was there before and after."""
        names = list(dict.fromkeys([*self.before, *self.after]))
        return [
            (
                name,
                self.before.get(name),
                self.after.get(name),
                name in self.before,
                name in self.after,
            )
            for name in names
        ]


class StateDiff(BaseModel):
    """What a run changed in its agent's exposed state (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    changes: list[RecordChange] = Field(default_factory=list)
    dropped: int = Field(0, ge=0, description="Changed records left out (over RECORD_LIMIT).")
    named: dict[str, dict[str, Any] | None] = Field(
        default_factory=dict,
        description="The end values of the fields the case's expected_state names, by record "
        "(None: the record is absent at the end).",
    )
    error: str | None = Field(
        None, description="Why a snapshot could not be taken (the state is then unknown)."
    )

    def change(self, record: str) -> RecordChange | None:
        """The change of one record, or None when it did not change (or was not kept)."""
        return next((c for c in self.changes if c.record == record), None)

    @property
    def empty(self) -> bool:
        """True when the run changed nothing (and both snapshots were taken)."""
        return not self.changes and not self.dropped and self.error is None


def plain(value: Any) -> Any:
    """``value`` as plain JSON data (a deep copy: a snapshot never aliases the live state);
    what JSON cannot hold (a date, a decimal) becomes its text."""
    return json.loads(json.dumps(value, default=str))


def snapshot_of(raw: Any) -> Snapshot:
    """A snapshot as returned by a factory's ``snapshot()``, checked and made plain data
    (a ValueError names what is wrong)."""
    data = plain(raw)
    if not isinstance(data, dict):
        raise ValueError(f"a state snapshot is a mapping of collections, got {type(raw).__name__}")
    for collection, records in data.items():
        if not isinstance(records, dict):
            raise ValueError(f"state collection {collection!r} is not a mapping of records")
        for record_id, record in records.items():
            if not isinstance(record, dict):
                raise ValueError(
                    f"state record {collection}/{record_id} is not a mapping of fields"
                )
    return data


def stored_value(value: Any, limit: int = VALUE_LIMIT) -> Any:
    """A value as stored: strings redacted and cut to ``limit`` characters (``...`` marks a
    cut), lists and mappings value by value."""
    if isinstance(value, str):
        text = redact(value)
        return text if len(text) <= limit else text[: limit - 3] + "..."
    if isinstance(value, list):
        return [stored_value(v, limit) for v in value]
    if isinstance(value, dict):
        return {k: stored_value(v, limit) for k, v in value.items()}
    return value


def _records(snapshot: Snapshot) -> dict[str, dict[str, Any]]:
    return {
        f"{collection}/{record_id}": record
        for collection, records in snapshot.items()
        for record_id, record in records.items()
    }


def _bounded(fields: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    return {name: stored_value(fields[name]) for name in names[:FIELD_LIMIT] if name in fields}


def _change(
    record: str, old: dict[str, Any] | None, new: dict[str, Any] | None
) -> RecordChange | None:
    if old is None and new is not None:
        return RecordChange(record=record, change="added", after=_bounded(new, list(new)))
    if new is None and old is not None:
        return RecordChange(record=record, change="removed", before=_bounded(old, list(old)))
    assert old is not None and new is not None
    names = [n for n in dict.fromkeys([*old, *new]) if old.get(n, _ABSENT) != new.get(n, _ABSENT)]
    if not names:
        return None
    return RecordChange(
        record=record, change="changed", before=_bounded(old, names), after=_bounded(new, names)
    )


_ABSENT = object()


def diff_snapshots(
    start: Snapshot, end: Snapshot, named: Mapping[str, Any] | None = None
) -> StateDiff:
    """What changed from ``start`` to ``end`` (records in the order they first appear), with
    the end values of the fields ``named`` (an ``expected_state``: record path -> fields or
    None) names."""
    before, after = _records(start), _records(end)
    changes: list[RecordChange] = []
    for record in dict.fromkeys([*before, *after]):
        change = _change(record, before.get(record), after.get(record))
        if change is not None:
            changes.append(change)
    kept: dict[str, dict[str, Any] | None] = {}
    for record, fields in (named or {}).items():
        end_record = after.get(record)
        if end_record is None:
            kept[record] = None
        else:
            wanted = list(fields) if isinstance(fields, Mapping) else []
            kept[record] = _bounded(end_record, wanted)
    return StateDiff(
        changes=changes[:RECORD_LIMIT],
        dropped=max(0, len(changes) - RECORD_LIMIT),
        named=kept,
    )


def value_text(value: Any) -> str:
    """A value in a change line: a string as itself, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def change_lines(diff: StateDiff) -> list[str]:
    """The diff as lines: ``orders/#W2 status: pending -> cancelled``, ``carts/#C1: added``."""
    lines = [f"state not known: {diff.error}"] if diff.error else []
    for change in diff.changes:
        if change.change != "changed":
            fields = change.after if change.change == "added" else change.before
            lines.append(f"{change.record}: {change.change} {json.dumps(fields, sort_keys=True)}")
            continue
        for name, old, new, had, has in change.field_changes():
            left = value_text(old) if had else "(absent)"
            right = value_text(new) if has else "(absent)"
            lines.append(f"{change.record} {name}: {left} -> {right}")
    if diff.dropped:
        lines.append(f"... {diff.dropped} more changed record(s) not stored")
    return lines

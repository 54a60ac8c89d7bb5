"""``arena golden migrate``: rewrite ``expected_tools`` / ``expected_order`` / ``expected_args``
into ``expected_calls`` where the rewrite is unambiguous, and the lint rule that says where
``expected_args`` can pass a wrong id or list.

A case is rewritten when its tool expectations say which call carries which arguments: each
tool of ``expected_args`` is expected once (or not listed in ``expected_tools``), and
``expected_order`` (when given) lists the same calls as ``expected_tools``. The calls keep the
order of ``expected_order`` (``calls_match`` then stays ``in_order``), else they are
``unordered``. Each call allows arguments it does not name (``other_args: allow``, as
``expected_args`` did). Argument values:

* an **id** (a string without spaces holding a digit and a letter or ``#``: ``#W2``,
  ``u-42``, ``ORD-1``) becomes exact: ``"#W2-X"`` no longer passes for ``"#W2"``;
* any other string keeps its approximate meaning as ``{contains: ...}`` (case-insensitive,
  numbers by value, as ``expected_args`` read it);
* a number, a bool or null is compared by value;
* a list becomes ``{unordered: [...]}``: the same items, no more, in any order (its items
  converted as above).

A case is left as it is, with the reason, when it has ``acceptable_tools`` (alternative tool
sets), already has ``expected_calls``, expects a tool several times with one arguments dict
(which call carries them?), orders other calls than it expects, or has an argument that is a
mapping. The file keeps its layout (:func:`arena.golden._versioning.save_edit`): the diff is
the rewritten cases and the version lines.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from arena.golden._matcher_syntax import is_id
from arena.golden._versioning import read_raw, save_edit

_OLD_FIELDS = ("expected_tools", "expected_order", "expected_args")


class Ambiguous(ValueError):
    """A case whose tool expectations cannot be rewritten as calls without a guess."""


class MigrationReport(BaseModel):
    """What ``arena golden migrate`` did: the cases rewritten and those left, with why."""

    dataset: str
    version: str
    migrated: list[str] = Field(default_factory=list)
    skipped: dict[str, str] = Field(default_factory=dict)
    written: bool = False


def _value(value: Any, where: str) -> Any:
    if isinstance(value, dict):
        raise Ambiguous(f"{where} is a mapping: which of its keys must match exactly?")
    if isinstance(value, list):
        return {"unordered": [_value(item, f"{where}.{i}") for i, item in enumerate(value)]}
    if isinstance(value, str) and not is_id(value):
        return {"contains": value}
    return value


def _sequence(case: dict[str, Any]) -> list[str]:
    tools = list(case.get("expected_tools", []))
    order = list(case.get("expected_order", []))
    if tools and order and Counter(tools) != Counter(order):
        raise Ambiguous("expected_order names other calls than expected_tools")
    sequence = order or tools
    for tool in case.get("expected_args", {}):
        count = sequence.count(tool)
        if count > 1:
            raise Ambiguous(f"{tool} is expected {count} times with one expected_args entry")
        if count == 0:
            if order:
                raise Ambiguous(f"expected_args names {tool}, which expected_order leaves out")
            sequence.append(tool)
    return sequence


def migrate_case(case: dict[str, Any]) -> dict[str, Any] | None:
    """The case with its tool expectations rewritten as ``expected_calls`` (its other fields
    in place), None when it has none to rewrite; :class:`Ambiguous` says why not."""
    if not any(case.get(name) for name in _OLD_FIELDS):
        return None
    if case.get("expected_calls"):
        raise Ambiguous("it already has expected_calls")
    if case.get("acceptable_tools"):
        raise Ambiguous("acceptable_tools lists alternative tool sets")
    sequence = _sequence(case)
    args = case.get("expected_args", {})
    calls: list[dict[str, Any]] = []
    for tool in sequence:
        given = args.get(tool, {})
        values = {name: _value(v, f"expected_args.{tool}.{name}") for name, v in given.items()}
        calls.append({"tool": tool, "args": values, "other_args": "allow"})
    out: dict[str, Any] = {}
    for key, value in case.items():
        if key in _OLD_FIELDS:
            if "expected_calls" not in out:
                out["expected_calls"] = calls
                if not case.get("expected_order") and len(calls) > 1:
                    out["calls_match"] = "unordered"
            continue
        out[key] = value
    return out


def migrate_dataset(path: str | Path, *, write: bool = True) -> MigrationReport:
    """Rewrite every unambiguous case of the dataset file at ``path`` (see the module doc);
    ``write=False`` reports without writing. The file is written (version bumped, layout
    kept) only when a case changed."""
    raw = read_raw(path)
    report = MigrationReport(dataset=str(raw.get("name", "")), version=str(raw.get("version")))
    cases = raw.get("test_cases", [])
    for index, case in enumerate(cases):
        try:
            new = migrate_case(case)
        except Ambiguous as why:
            report.skipped[str(case.get("id"))] = str(why)
            continue
        if new is not None:
            cases[index] = new
            report.migrated.append(str(case.get("id")))
    if report.migrated and write:
        change = f"migrate {len(report.migrated)} case(s) to expected_calls"
        dataset = save_edit(path, raw, change)
        report.version, report.written = dataset.version, True
    return report

"""Exact value matching with per-value matchers (``expected_calls`` arguments, ``expected_state``).

An expected value matches an actual one **exactly by default**:

* a string: the same string (case-sensitive, never a substring);
* a number: the same value (``1 == 1.0``), never a bool (``true`` is not ``1``);
* a bool or null: the same value;
* a list: a list of the same length whose elements match in order;
* a mapping: a mapping with the same keys whose values match (unless it is a matcher).

A **matcher** is a mapping with exactly one of these keys (``tol`` only beside ``approx``),
for when a team wants less than exact:

* ``{"contains": text}``: a string containing ``text`` as ``expected_output_contains`` reads
  it (case-insensitive, numbers by value: ``"1200"`` is in ``"0.25 * 1200"``, not in
  ``"11200"``), or a list with an element matching ``text``;
* ``{"regex": pattern}``: a string the pattern is found in (RE2, read like
  ``expected_output_regex``: case-insensitive, ``^``/``$`` at line ends; anchor it to match
  the whole value);
* ``{"any": true}``: any value (the argument or field must still be present);
* ``{"unordered": [...]}``: a list of the same length matched one to one in any order;
* ``{"approx": x, "tol": t}``: a number within ``t`` of ``x`` (``tol`` defaults to a tiny
  relative tolerance);
* ``{"exact": value}``: ``value`` literally, even a mapping that reads like a matcher.

:func:`match_value` returns None on a match, else a short reason naming what differs;
:func:`check_expected` validates an expected value (the golden loader's check, defined with
the matchers' syntax in :mod:`arena.golden._matcher_syntax`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from arena.golden._matcher_syntax import (
    MATCHER_KEYS,
    check_expected,
    is_matcher,
    matcher_key,
    show,
)
from arena.inputs.linear_regex import search as linear_search
from arena.scoring._textmatch import contains_item

__all__ = ["MATCHER_KEYS", "check_expected", "is_matcher", "match_value", "matcher_key", "show"]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _numbers_equal(a: float, b: float) -> bool:
    return bool(a == b) or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _differs(expected: Any, actual: Any) -> str:
    return f"expected {show(expected)}, got {show(actual)}"


def _match_list(expected: list[Any], actual: Any, literal: bool) -> str | None:
    if not isinstance(actual, list | tuple):
        return _differs(expected, actual)
    if len(expected) != len(actual):
        return f"expected a list of {len(expected)}, got {len(actual)}: {show(actual)}"
    for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
        reason = _exact(want, got, literal) if literal else match_value(want, got)
        if reason is not None:
            return f"item {index}: {reason}"
    return None


def _match_mapping(expected: Mapping[str, Any], actual: Any, literal: bool) -> str | None:
    if not isinstance(actual, Mapping):
        return _differs(dict(expected), actual)
    missing = [key for key in expected if key not in actual]
    if missing:
        return f"{missing[0]} missing"
    extra = [key for key in actual if key not in expected]
    if extra:
        return f"{extra[0]} not expected"
    for key, want in expected.items():
        reason = _exact(want, actual[key], literal) if literal else match_value(want, actual[key])
        if reason is not None:
            return f"{key}: {reason}"
    return None


def _one_to_one(expected: list[Any], actual: list[Any]) -> bool:
    """True when every expected element takes a distinct actual element it matches."""
    taken: dict[int, int] = {}  # actual index -> expected index

    def place(i: int, seen: set[int]) -> bool:
        for j, got in enumerate(actual):
            if j in seen or match_value(expected[i], got) is not None:
                continue
            seen.add(j)
            if j not in taken or place(taken[j], seen):
                taken[j] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(expected)))


def _match_unordered(expected: list[Any], actual: Any) -> str | None:
    if not isinstance(actual, list | tuple):
        return f"expected a list, got {show(actual)}"
    if len(expected) != len(actual) or not _one_to_one(list(expected), list(actual)):
        return f"expected {show(expected)} in any order, got {show(actual)}"
    return None


def _match_approx(matcher: Mapping[str, Any], actual: Any) -> str | None:
    target = matcher["approx"]
    if not _is_number(actual):
        return f"expected a number near {show(target)}, got {show(actual)}"
    tol = matcher.get("tol")
    close = _numbers_equal(target, actual) if tol is None else abs(actual - target) <= tol
    if close:
        return None
    within = "" if tol is None else f" ± {show(tol)}"
    return f"expected {show(target)}{within}, got {show(actual)}"


def _match_contains(text: Any, actual: Any) -> str | None:
    if isinstance(actual, str) and isinstance(text, str):
        return (
            None
            if contains_item(actual, text)
            else f"expected a string containing {show(text)}, got {show(actual)}"
        )
    if isinstance(actual, list | tuple):
        if any(match_value(text, item) is None for item in actual):
            return None
        return f"expected a list containing {show(text)}, got {show(actual)}"
    return f"expected a value containing {show(text)}, got {show(actual)}"


def _match_matcher(key: str, matcher: Mapping[str, Any], actual: Any) -> str | None:
    if key == "any":
        return None
    if key == "exact":
        return _exact(matcher["exact"], actual, literal=True)
    if key == "contains":
        return _match_contains(matcher["contains"], actual)
    if key == "regex":
        if not isinstance(actual, str):
            return f"expected a string matching /{matcher['regex']}/, got {show(actual)}"
        try:
            found = linear_search(matcher["regex"], actual)
        except re.error as exc:
            return f"invalid regex {show(matcher['regex'])}: {exc}"
        return None if found else f"expected /{matcher['regex']}/, got {show(actual)}"
    if key == "unordered":
        return _match_unordered(matcher["unordered"], actual)
    return _match_approx(matcher, actual)


def _exact(expected: Any, actual: Any, literal: bool = False) -> str | None:
    """``expected`` compared exactly at its top level; its elements may hold matchers unless
    ``literal`` (inside ``{exact: ...}``, where every mapping is a value)."""
    if expected is None or isinstance(expected, bool):
        return None if actual is expected else _differs(expected, actual)
    if _is_number(expected):
        if _is_number(actual) and _numbers_equal(expected, actual):
            return None
        return _differs(expected, actual)
    if isinstance(expected, str):
        return (
            None if isinstance(actual, str) and actual == expected else _differs(expected, actual)
        )
    if isinstance(expected, list | tuple):
        return _match_list(list(expected), actual, literal)
    if isinstance(expected, Mapping):
        return _match_mapping(expected, actual, literal)
    return None if expected == actual else _differs(expected, actual)


def match_value(expected: Any, actual: Any) -> str | None:
    """None when ``actual`` matches ``expected`` (exactly, or by its matcher), else a short
    reason such as ``expected "60621", got "60621-1234"`` (rules in the module docstring)."""
    key = matcher_key(expected)
    if key is not None:
        return _match_matcher(key, expected, actual)
    return _exact(expected, actual)

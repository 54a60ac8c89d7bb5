"""The syntax of value matchers (``expected_calls`` arguments, ``expected_state`` values):
which mapping is a matcher, and the validation a golden file's values get when it loads.

What a matcher means is :mod:`arena.scoring._matchers` (``match_value``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from arena.inputs.linear_regex import check_pattern

MATCHER_KEYS: tuple[str, ...] = ("contains", "regex", "any", "unordered", "approx", "exact")
"""The keys that make a mapping a matcher."""

_SHOWN = 80
"""Characters of a value shown in a reason."""


def show(value: Any) -> str:
    """``value`` as JSON, cut to a readable length (reasons and lint messages)."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)
    except (TypeError, ValueError):  # pragma: no cover - default=str makes this rare
        text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def matcher_key(value: Any) -> str | None:
    """The matcher key of ``value`` when it is a matcher mapping, else None."""
    if not isinstance(value, Mapping):
        return None
    keys = set(value)
    if keys == {"approx", "tol"}:
        return "approx"
    if len(keys) == 1:
        (key,) = keys
        return key if key in MATCHER_KEYS else None
    return None


def is_matcher(value: Any) -> bool:
    """True when ``value`` is a matcher mapping (see the module docstring)."""
    return matcher_key(value) is not None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_matcher(key: str, value: Mapping[str, Any], where: str) -> None:
    inner = value[key]
    if key == "any" and inner is not True:
        raise ValueError(f"{where}: {{any: true}} is the only form of the any matcher")
    if key == "regex":
        if not isinstance(inner, str):
            raise ValueError(f"{where}: a regex matcher needs a string pattern")
        try:
            check_pattern(inner)
        except re.error as exc:
            raise ValueError(f"{where}: invalid regular expression: {exc}") from None
    if key == "contains" and isinstance(inner, Mapping | list):
        check_expected(inner, where=f"{where}.contains")
    if key == "unordered":
        if not isinstance(inner, list):
            raise ValueError(f"{where}: an unordered matcher needs a list")
        for index, item in enumerate(inner):
            check_expected(item, where=f"{where}.unordered.{index}")
    if key == "approx":
        tol = value.get("tol", 0)
        if not _is_number(inner) or not _is_number(tol) or tol < 0:
            raise ValueError(f"{where}: approx needs a number and tol a number >= 0")


def _check_elements(value: Any, where: str) -> None:
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            check_expected(item, where=f"{where}.{index}")
    elif isinstance(value, Mapping):
        for name, item in value.items():
            check_expected(item, where=f"{where}.{name}")


def check_expected(value: Any, where: str = "value") -> None:
    """Raise ValueError naming ``where`` when ``value`` holds a malformed matcher: a mapping
    with a matcher key beside other keys (write a literal one as ``{exact: ...}``), a bad
    regex, ``any`` other than true, ``tol`` without ``approx``, ..."""
    key = matcher_key(value)
    if key is not None:
        _check_matcher(key, value, where)
        return
    if isinstance(value, Mapping):
        keys = [k for k in value if k in (*MATCHER_KEYS, "tol")]
        if keys:
            raise ValueError(
                f"{where}: a mapping with {', '.join(sorted(map(str, keys)))} and other keys is "
                "neither a matcher (exactly one of contains, regex, any, unordered, approx "
                "(+ tol), exact) nor clearly a literal: write a literal mapping as "
                "{exact: {...}}"
            )
    _check_elements(value, where)


_ID = re.compile(r"^(?=\S*\d)(?=\S*[A-Za-z#])\S+$")
"""An id-like value: no spaces, a digit, and a letter or ``#``."""


def is_id(value: Any) -> bool:
    """True for an id-like string (``#W2``, ``u-42``): exact, never a substring."""
    return isinstance(value, str) and _ID.match(value) is not None


def _loose(value: Any) -> str | None:
    """Why an ``expected_args`` value can pass a wrong one, or None."""
    if is_id(value):
        return f"{show(value)} matches as a substring: {show(value + '-X')} passes"
    if isinstance(value, list):
        return f"{show(value)} matches as a subset: a list with one more item passes"
    return None


def loose_args(
    expected_args: Mapping[str, Mapping[str, Any]], expected_tools: list[str]
) -> list[str]:
    """Why a case's ``expected_args`` can pass a wrong call, one phrase each (empty: they
    cannot): an id matches as a substring and a list as a subset, and when the tool is in
    ``expected_tools`` (a minimum) a second call of it with another id passes too."""
    loose = [
        f"{tool}.{name} {why}"
        for tool, args in expected_args.items()
        for name, value in args.items()
        if (why := _loose(value)) is not None
    ]
    tools = sorted({item.split(".", 1)[0] for item in loose} & set(expected_tools))
    if tools:
        loose.append(
            f"expected_tools is a minimum: another call of {', '.join(tools)} (another id) "
            "passes unless the agent declares it side-effecting"
        )
    return loose

"""Approximate tool-argument matching for a case's ``expected_args``.

An expected value is satisfied when:

* a string: it occurs case-insensitively in the actual value (numbers in it compared by
  value, so ``"1200"`` is satisfied by ``"1200 * 0.25"`` but not by ``"11200"``);
* a number: the actual value equals it tolerantly, or is a string containing it;
* a bool or None: the actual value is equal;
* a list: every element is satisfied by the actual value (or by one of its elements);
* a dict: every key is satisfied recursively in the actual dict.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from arena.records.results import TrajectoryStep
from arena.scoring._textmatch import contains_item, numbers_close
from arena.scoring._types import Check, mean

_MISSING = object()


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # pragma: no cover - default=str makes this rare
        return str(value)


def _number_repr(value: int | float) -> str:
    return repr(value) if isinstance(value, float) and not value.is_integer() else str(int(value))


def value_satisfied(expected: Any, actual: Any) -> bool:
    """True when ``actual`` approximately satisfies ``expected`` (rules in the module doc)."""
    if actual is _MISSING:
        return False
    if expected is None or isinstance(expected, bool):
        return actual is expected or actual == expected
    if isinstance(expected, int | float):
        if isinstance(actual, int | float) and not isinstance(actual, bool):
            return numbers_close(expected, actual)
        return contains_item(_as_text(actual), _number_repr(expected))
    if isinstance(expected, str):
        return contains_item(_as_text(actual), expected)
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return False
        return all(value_satisfied(v, actual.get(k, _MISSING)) for k, v in expected.items())
    if isinstance(expected, Sequence):
        if isinstance(actual, Sequence) and not isinstance(actual, str):
            return all(any(value_satisfied(e, a) for a in actual) for e in expected)
        return all(value_satisfied(e, actual) for e in expected)
    return bool(expected == actual)


def args_fraction(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> float:
    """Fraction of expected arguments the actual arguments satisfy (1 for none expected)."""
    if not expected:
        return 1.0
    hits = sum(value_satisfied(v, actual.get(k, _MISSING)) for k, v in expected.items())
    return hits / len(expected)


def args_satisfied(actual: Mapping[str, Any], expected: Mapping[str, Any]) -> bool:
    """True when every expected argument is approximately satisfied (a match-mode matcher)."""
    return args_fraction(expected, actual) == 1.0


def score_expected_args(
    steps: Sequence[TrajectoryStep], expected_args: Mapping[str, Mapping[str, Any]]
) -> Check:
    """Mean over expected tools of the fraction of expected args the best call satisfies.

    A tool in ``expected_args`` that was never called scores 0. Every step given counts:
    :func:`arena.scoring.score_trajectory` gives the steps as scored, where a call that
    failed (raised, timed out, unavailable) is no longer a call of its tool.
    """
    per_tool: dict[str, dict[str, Any]] = {}
    for tool, expected in expected_args.items():
        calls = [step for step in steps if step.tool == tool]
        if not calls:
            per_tool[tool] = {"score": 0.0, "called": False, "expected": dict(expected)}
            continue
        fractions = [args_fraction(expected, step.args) for step in calls]
        best = max(range(len(calls)), key=lambda i: fractions[i])
        per_tool[tool] = {
            "score": fractions[best],
            "called": True,
            "best_step": calls[best].index,
            "args": calls[best].args,
            "expected": dict(expected),
        }
    score = mean([entry["score"] for entry in per_tool.values()], default=1.0)
    passed = all(entry["score"] == 1.0 for entry in per_tool.values())
    return Check(score=score, passed=passed, details={"tools": per_tool})

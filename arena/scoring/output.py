"""Output scorers: contains (with alternatives), not-contains, regex and exact match."""

from __future__ import annotations

import re
from collections.abc import Sequence

from arena.golden.models import GoldenCase
from arena.linear_regex import search as linear_search
from arena.scoring.textmatch import collapse_spaces, first_alternative, normalize_text
from arena.scoring.types import Check, mean


def _label(item: str | list[str]) -> str | list[str]:
    return item if isinstance(item, str) else list(item)


def score_contains(output: str, items: Sequence[str | list[str]]) -> Check:
    """Fraction of expected items found in ``output``; passes when every item is found.

    Each item is a string or a list of alternatives of which any one suffices. Matching
    is case-insensitive and compares numbers by value (see ``arena.scoring.textmatch``).
    No items scores 1.
    """
    matched: list[dict[str, object]] = []
    missed: list[str | list[str]] = []
    for item in items:
        hit = first_alternative(output, item)
        if hit is None:
            missed.append(_label(item))
        else:
            matched.append({"item": _label(item), "found": hit})
    score = len(matched) / len(items) if items else 1.0
    return Check(score=score, passed=not missed, details={"matched": matched, "missed": missed})


def score_not_contains(output: str, items: Sequence[str]) -> Check:
    """1 minus the fraction of forbidden strings present; passes only with no violation."""
    violations = [item for item in items if first_alternative(output, item) is not None]
    score = 1.0 - len(violations) / len(items) if items else 1.0
    return Check(score=score, passed=not violations, details={"violations": violations})


def score_regex(output: str, pattern: str) -> Check:
    """1 when ``pattern`` is found anywhere in ``output`` (case-insensitive, multiline), in
    time linear in the output (:mod:`arena.linear_regex`).

    An invalid pattern scores 0 and records the compile error.
    """
    try:
        match = linear_search(pattern, output)
    except re.error as exc:
        return Check(score=0.0, passed=False, details={"pattern": pattern, "error": str(exc)})
    found = match.group(0) if match else None
    return Check(
        score=1.0 if match else 0.0,
        passed=match is not None,
        details={"pattern": pattern, "found": found},
    )


def normalize_exact(text: str) -> str:
    """Casefolded, Unicode-normalised text with whitespace collapsed."""
    return collapse_spaces(normalize_text(text))


def score_exact(output: str, expected: str) -> Check:
    """1 when ``output`` equals ``expected`` after whitespace and case normalisation."""
    equal = normalize_exact(output) == normalize_exact(expected)
    return Check(score=1.0 if equal else 0.0, passed=equal, details={"expected": expected})


def output_checks(output: str, case: GoldenCase) -> dict[str, Check]:
    """Every output check the case asks for, keyed contains/not_contains/regex/exact."""
    checks: dict[str, Check] = {}
    if case.expected_output_contains:
        checks["contains"] = score_contains(output, case.expected_output_contains)
    if case.expected_output_not_contains:
        checks["not_contains"] = score_not_contains(output, case.expected_output_not_contains)
    if case.expected_output_regex is not None:
        checks["regex"] = score_regex(output, case.expected_output_regex)
    if case.expected_output_exact is not None:
        checks["exact"] = score_exact(output, case.expected_output_exact)
    return checks


def score_output(output: str, case: GoldenCase) -> Check | None:
    """The output component (None when the case has no output check).

    The score is the mean of the positive checks (contains, regex, exact); not-contains
    is a guard, not a merit: it only affects ``passed`` (and the hard fails of the
    combined score), and scores the component alone when it is the only check, so a
    wrong answer free of forbidden text cannot earn half marks for that.
    """
    checks = output_checks(output, case)
    if not checks:
        return None
    positive = [c.score for name, c in checks.items() if name != "not_contains"]
    score = mean(positive) if positive else checks["not_contains"].score
    passed = all(check.passed for check in checks.values())
    details = {name: {"score": c.score, **c.details} for name, c in checks.items()}
    return Check(score=score, passed=passed, details=details)

"""The output component: the mean of the output checks of :mod:`arena.scoring.checks`
(contains, not-contains, regex, exact and any registered plugin check of component
``output``)."""

from __future__ import annotations

from arena.golden._models import GoldenCase
from arena.records.results import RunResult
from arena.scoring._types import Check, mean
from arena.scoring.checks import OUTPUT, CheckInput, golden_checks
from arena.scoring.checks._contains import score_contains
from arena.scoring.checks._exact import normalize_exact, score_exact
from arena.scoring.checks._not_contains import score_not_contains
from arena.scoring.checks._regex import score_regex

__all__ = [
    "normalize_exact",
    "output_checks",
    "score_contains",
    "score_exact",
    "score_not_contains",
    "score_output",
    "score_regex",
]


def output_checks(
    output: str, case: GoldenCase, result: RunResult | None = None
) -> dict[str, Check]:
    """Every output check the case asks for, by check name, in registry order (``result``,
    when given, lets an ``in: any_reply`` item see every reply of the run)."""
    data = CheckInput(case=case, output=output, result=result)
    checks: dict[str, Check] = {}
    for check in golden_checks():
        if check.component == OUTPUT:
            verdict = check.score(data)
            if verdict is not None:
                checks[check.name] = verdict
    return checks


def score_output(output: str, case: GoldenCase, result: RunResult | None = None) -> Check | None:
    """The output component (None when the case has no output check; ``result`` as for
    :func:`output_checks`).

    The score is the mean of the positive checks (contains, regex, exact, ...); a guard
    (not-contains) is not a merit: it only affects ``passed`` (and the hard fails of the
    combined score), and scores the component alone when it is the only check, so a
    wrong answer free of forbidden text cannot earn half marks for that.
    """
    checks = output_checks(output, case, result)
    if not checks:
        return None
    guards = {c.name for c in golden_checks() if c.guard}
    positive = [c.score for name, c in checks.items() if name not in guards]
    score = mean(positive) if positive else mean([checks[n].score for n in checks])
    passed = all(check.passed for check in checks.values())
    details = {name: {"score": c.score, **c.details} for name, c in checks.items()}
    return Check(score=score, passed=passed, details=details)

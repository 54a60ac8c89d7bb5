"""Curating a golden set: linting it (duplicates, regexes, conversations, cases that do not
separate variants) and growing it from runs (adding and promoting cases)."""

from arena.curation._grow import add_case, add_from_result, case_from_result, promote_case
from arena.curation._lint import LintReport, lint_dataset, scores_for_lint
from arena.curation._lint_types import LintFinding

__all__ = [
    "LintFinding",
    "LintReport",
    "add_case",
    "add_from_result",
    "case_from_result",
    "lint_dataset",
    "promote_case",
    "scores_for_lint",
]

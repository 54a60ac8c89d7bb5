"""Reports of scores and regression verdicts: JSON dict, text table, Markdown.

Public names load lazily, so ``arena.reports.format`` (the table and percentage helpers the
CLI uses) can be imported without loading the scoring package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.gate.report import regression_markdown, regression_text
    from arena.reports.format import pct, text_table
    from arena.reports.markdown import md_table, scores_markdown
    from arena.reports.render import scores_json, scores_table

_EXPORTS = {
    "md_table": "arena.reports.markdown",
    "pct": "arena.reports.format",
    # one renderer of regression verdicts, beside the gate's report
    "regression_markdown": "arena.gate.report",
    "regression_text": "arena.gate.report",
    "scores_json": "arena.reports.render",
    "scores_markdown": "arena.reports.markdown",
    "scores_table": "arena.reports.render",
    "text_table": "arena.reports.format",
}

__all__ = [
    "md_table",
    "pct",
    "regression_markdown",
    "regression_text",
    "scores_json",
    "scores_markdown",
    "scores_table",
    "text_table",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.reports' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

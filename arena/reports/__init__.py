"""Reports of scores and regression verdicts: JSON dict, text table, Markdown.

Public names load lazily, so ``arena.reports._format`` (the table and percentage helpers the
CLI uses) can be imported without loading the scoring package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.gate._report import regression_markdown, regression_text
    from arena.reports._format import is_web_url, pct, terminal_safe, text_table
    from arena.reports._markdown import md_link, md_table, scores_markdown
    from arena.reports._render import scores_json, scores_table

_EXPORTS = {
    "is_web_url": "arena.reports._format",
    "md_link": "arena.reports._markdown",
    "md_table": "arena.reports._markdown",
    "pct": "arena.reports._format",
    # one renderer of regression verdicts, beside the gate's report
    "regression_markdown": "arena.gate._report",
    "regression_text": "arena.gate._report",
    "scores_json": "arena.reports._render",
    "scores_markdown": "arena.reports._markdown",
    "scores_table": "arena.reports._render",
    "terminal_safe": "arena.reports._format",
    "text_table": "arena.reports._format",
}

__all__ = [
    "is_web_url",
    "md_link",
    "md_table",
    "pct",
    "regression_markdown",
    "regression_text",
    "scores_json",
    "scores_markdown",
    "scores_table",
    "terminal_safe",
    "text_table",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.reports' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

"""Reports of scores: JSON dict, text table, Markdown, the score formats, and the text helpers
every report uses (regression verdicts are rendered by the gate: :mod:`arena.gate`).

Public names load lazily, so ``arena.reports._format`` (the table and percentage helpers the
CLI uses) can be imported without loading the scoring package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.reports._format import is_web_url, json_text, pct, terminal_safe, text_table
    from arena.reports._markdown import md_link, md_table, scores_markdown
    from arena.reports._render import scores_json, scores_table

_EXPORTS = {
    "is_web_url": "arena.reports._format",
    "json_text": "arena.reports._format",
    "md_link": "arena.reports._markdown",
    "md_table": "arena.reports._markdown",
    "pct": "arena.reports._format",
    "scores_json": "arena.reports._render",
    "scores_markdown": "arena.reports._markdown",
    "scores_table": "arena.reports._render",
    "terminal_safe": "arena.reports._format",
    "text_table": "arena.reports._format",
}

__all__ = [
    "is_web_url",
    "json_text",
    "md_link",
    "md_table",
    "pct",
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

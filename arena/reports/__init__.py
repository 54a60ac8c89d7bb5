"""Reports of scores and regression verdicts: JSON dict, text table, Markdown."""

from arena.reports.markdown import md_table, scores_markdown
from arena.reports.regression import regression_markdown, regression_text
from arena.reports.render import scores_json, scores_table, text_table

__all__ = [
    "md_table",
    "regression_markdown",
    "regression_text",
    "scores_json",
    "scores_markdown",
    "scores_table",
    "text_table",
]

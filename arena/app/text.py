"""Small text helpers of the app: Markdown escaping, number formats, error text.

Verdict and winner wording comes from :mod:`arena.vocabulary`, percentages from
:mod:`arena.reports._format`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import streamlit as st

from arena.reports._format import is_missing as missing

if TYPE_CHECKING:
    from arena.gate._compare import Decision

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")

VERDICT_STYLE: dict[Decision, str] = {
    "better": "success",
    "non-inferior": "info",
    "worse": "error",
    "inconclusive": "warning",
    "identical": "info",
}
"""The Streamlit box each compare decision is shown in."""


def md(text: Any) -> str:
    """Escape a value for Markdown, so names and labels render literally."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def code(text: Any) -> str:
    """A value safe inside a Markdown code span (backticks removed)."""
    return str(text).replace("`", "'")


def plural(count: int, noun: str) -> str:
    """'1 case', '2 cases'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def dollars(value: Any) -> str:
    """Cost in dollars with enough decimals for fractions of a cent."""
    if missing(value):
        return "-"
    value = float(value)
    return f"${value:,.2f}" if value >= 1 else f"${value:.4f}" if value >= 0.01 else f"${value:.6f}"


def cost_format(costs: Any) -> str:
    """A printf format for a cost column, precise enough for its largest value."""
    values = [float(c) for c in costs if not missing(c)]
    top = max(values, default=0.0)
    return "$%.2f" if top >= 1 else "$%.4f" if top >= 0.01 else "$%.6f"


def error_text(exc: BaseException) -> str:
    """The friendly part of an exception (KeyError messages without their quotes)."""
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    return f"{exc}" or type(exc).__name__


@contextmanager
def guarded(what: str) -> Iterator[None]:
    """Show a warning instead of a stack trace when a page section fails to load."""
    try:
        yield
    except Exception as exc:  # a broken section must not take the page down
        st.warning(f"Could not show {what}: {md(error_text(exc))}")

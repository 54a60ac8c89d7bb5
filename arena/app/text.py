"""Small text helpers of the app: Markdown escaping, number formats, error text.

Verdict and winner wording comes from :mod:`arena.vocabulary`, numbers from
:mod:`arena.display` (the formats the CLI shares).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import streamlit as st

from arena.display import dollars as display_dollars
from arena.display import is_missing as missing  # noqa: F401 (the views import it from here)

if TYPE_CHECKING:
    from arena.compare._compare import Decision

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
    """Cost in dollars, the one format of :func:`arena.display.dollars`."""
    return display_dollars(value)


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

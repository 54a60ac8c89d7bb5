"""Plain-text formatting shared by the CLI, the reports and the app: a table, a percentage,
text made safe for a terminal, and which URLs may be links.

Standard library only, so the CLI can import it without loading the scoring package.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import Any

DASH = "—"
"""What :func:`pct` shows for a missing value unless told otherwise."""

# C0 controls but tab and newline, DEL, C1 controls (0x9b is an 8-bit CSI), and the bidi
# embeddings, overrides and isolates that reorder what a terminal or a page shows.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_WEB_URL = re.compile(r"(?i)^https?://[^\s<>\"'`()\[\]]+$")


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group(0)):04x}"


def terminal_safe(text: str) -> str:
    """``text`` with every control character shown as an escape (``\\u001b``) instead of
    acting on the terminal: ANSI CSI/OSC sequences, carriage returns, backspaces, the other
    C0 and C1 controls and bidi overrides. Newlines and tabs stay; ``\\r\\n`` becomes ``\\n``.

    Model output printed as-is could erase the real answer and print its own, or retitle the
    terminal. The escapes are valid inside JSON strings too, so JSON stays JSON.
    """
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(_escaped, text.replace("\r\n", "\n"))


def finite_json(value: Any) -> Any:
    """``value`` with every float that is not finite (``inf``, ``nan``) as None: JSON has no
    such numbers, and Python's ``json`` would write ``Infinity``/``NaN``, which no JSON reader
    accepts."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite_json(v) for v in value]
    return value


def json_text(value: Any, *, indent: int | None = 2, sort_keys: bool = False) -> str:
    """``value`` as JSON text every reader accepts: a number that is not finite is written
    ``null`` (:func:`finite_json`), never ``Infinity`` or ``NaN``. Every ``--json`` output is
    written with it."""
    return json.dumps(finite_json(value), indent=indent, sort_keys=sort_keys, allow_nan=False)


def one_line(text: str) -> str:
    """``text`` on one line, for a Markdown cell or list item: control characters escaped as
    :func:`terminal_safe` escapes them (a bare carriage return is ``\\u000d``, never a
    space), then every run of whitespace (newlines, ``\\r\\n`` and tabs included) one space."""
    return " ".join(terminal_safe(text).split())


def is_web_url(url: str) -> bool:
    """True for an ``http(s)://`` URL without spaces, quotes or brackets: the only kind
    rendered as a link (a ``javascript:`` or ``data:`` URL never is)."""
    return bool(_WEB_URL.match(url))


def is_missing(value: Any) -> bool:
    """True for None and NaN (pandas' missing value)."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def pct(value: float | None, digits: int = 1, empty: str = DASH) -> str:
    """A 0-1 rate as a percentage: ``pct(0.1234)`` is ``'12.3%'``, ``pct(0.1234, 0)`` ``'12%'``.

    None and NaN give ``empty`` (an em dash unless told).
    """
    if value is None or math.isnan(value):
        return empty
    return f"{100 * value:.{digits}f}%"


def cell(value: Any) -> str:
    """A table cell: strings as they are, floats with 4 decimals below 1 (else 2)."""
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < 1 else f"{value:.2f}"
    return str(value)


def text_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A left-aligned plain-text table with a dashed rule under the header.

    Cells go through :func:`cell`; every row has one cell per header.
    """
    cells = [[str(h) for h in headers], *[[cell(c) for c in row] for row in rows]]
    for number, row in enumerate(cells[1:], start=1):
        if len(row) != len(headers):
            raise ValueError(f"row {number} has {len(row)} cells for {len(headers)} headers")
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)

"""Options and helpers shared by several sub-commands."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arena.paths import data_dir


def add_db(parser: argparse.ArgumentParser) -> None:
    """--db URL (default $ARENA_DB_URL, else sqlite:///arena.db)."""
    parser.add_argument("--db", default=None,
                        help="SQLAlchemy URL (default: $ARENA_DB_URL or sqlite:///arena.db)")


def default_dataset() -> str:
    """The shipped golden dataset."""
    return str(data_dir() / "golden" / "research_agent.json")


def write_text(path: str, text: str) -> None:
    """Write a report file, creating its folder."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def table(rows: list[list[Any]], headers: list[str]) -> str:
    """A plain aligned text table."""
    cells = [[str(h) for h in headers], *[[_fmt(c) for c in row] for row in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
             for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < 1 else f"{value:.2f}"
    return str(value)

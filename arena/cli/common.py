"""Options and helpers shared by several sub-commands."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from arena.defaults import TIER_CHOICES
from arena.paths import data_dir
from arena.reports._format import terminal_safe


def add_db(parser: argparse.ArgumentParser) -> None:
    """--db URL (default $ARENA_DB_URL, else sqlite:///arena.db).

    The URL is checked when the store opens (:func:`arena.storage._engine.check_url`): a bad one
    is an InputError naming --db (exit 2) before anything is created or written.
    """
    parser.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="SQLAlchemy URL, e.g. sqlite:///arena.db or "
        "postgresql+psycopg://user@host/dbname; an SQLite file's folder "
        "must exist (default: $ARENA_DB_URL or sqlite:///arena.db)",
    )


def add_case_flags(
    group: Any,
    *,
    dataset: str | None,
    tier: str | None,
    repeats: int | None,
    concurrency: int | None,
    variants_dir: bool = False,
) -> None:
    """The flags choosing which cases a run takes and how: --dataset, (--variants-dir), --tier,
    --cases, --repeats, --concurrency, with these defaults (None: left to a config file).

    One home for ``arena run``/``plan``, ``arena gate`` and ``arena compare --sequential``;
    ``group`` is a parser or an argument group.
    """
    group.add_argument("--dataset", default=dataset, metavar="FILE", help="golden dataset JSON")
    if variants_dir:
        group.add_argument(
            "--variants-dir", default=None, metavar="DIR", help="where VARIANT names are looked up"
        )
    group.add_argument("--tier", default=tier, choices=TIER_CHOICES)
    group.add_argument("--cases", default=None, metavar="ID,...", help="comma-separated case ids")
    group.add_argument("--repeats", type=int, default=repeats)
    group.add_argument("--concurrency", type=int, default=concurrency)


def default_dataset() -> str:
    """The shipped golden dataset."""
    return str(data_dir() / "golden" / "research_agent.json")


def write_text(path: str, text: str) -> None:
    """Write a report file, creating its folder; control characters are escaped
    (:func:`~arena.reports._format.terminal_safe`), since the file is read in terminals too."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(terminal_safe(text), encoding="utf-8")


class TerminalSafe:
    """A text stream that passes everything written through
    :func:`~arena.reports._format.terminal_safe`: ``arena`` writes its stdout through one, so
    no command prints a model's control characters, whatever it prints. The rest (flush,
    fileno, isatty, encoding) is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` made safe; returns the length of ``text`` (as TextIO does)."""
        self.stream.write(terminal_safe(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        """Write each line made safe."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)

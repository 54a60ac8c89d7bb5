"""Options and helpers shared by several sub-commands."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arena.defaults import TIER_CHOICES
from arena.paths import data_dir


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
    group.add_argument(
        "--tier", default=tier, choices=TIER_CHOICES, help="the golden cases' tier to run"
    )
    group.add_argument("--cases", default=None, metavar="ID,...", help="comma-separated case ids")
    group.add_argument("--repeats", type=int, default=repeats, help="runs of each case per variant")
    group.add_argument("--concurrency", type=int, default=concurrency, help="agent runs at a time")


def default_dataset() -> str:
    """The shipped golden dataset."""
    return str(data_dir() / "golden" / "research_agent.json")


def write_text(path: str, text: str) -> None:
    """Write a report file, creating its folder."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")

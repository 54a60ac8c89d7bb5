"""``arena battles export``: a run's judged battles as a battle log in Chatbot Arena's schema."""

from __future__ import annotations

import argparse
from typing import Any

from arena.cli.common import add_db


def register(sub: Any) -> None:
    """Add ``battles export``."""
    e = sub.add_parser("battles", help="export a run's judged battles as a battle log")
    esub = e.add_subparsers(dest="battles_command", required=True)
    x = esub.add_parser(
        "export",
        help="write the battles in Chatbot Arena's JSONL schema, with lengths and markdown counts",
    )
    x.add_argument("file", metavar="FILE.jsonl")
    x.add_argument("--run", type=int, default=None, help="run id (default: latest)")
    x.add_argument("--judge", default=None, metavar="KEY", help="judge key (default: latest)")
    add_db(x)
    x.set_defaults(handler=cmd_battles_export)


def cmd_battles_export(args: argparse.Namespace) -> int:
    """Write a run's judged battles as a JSONL battle log."""
    from arena.battle_log import export_battle_log
    from arena.storage import Store

    n = export_battle_log(Store(args.db), args.file, args.run, judge_key=args.judge)
    print(f"wrote {n} battles to {args.file}")
    return 0

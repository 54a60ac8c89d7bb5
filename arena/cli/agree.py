"""``arena agree A.jsonl [B.jsonl]``: MT-Bench-style agreement between judges of battle logs."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from arena.cli._commands import command
from arena.reports._format import json_text, pct, text_table


@command("agree", order=180)
def register(sub: Any) -> None:
    """Add the agree sub-command."""
    p = sub.add_parser(
        "agree",
        help="agreement between the judges of one or two battle logs (MT-Bench style)",
        description="Votes are matched by question, unordered model pair and turn (a swapped "
        "pair's winner is swapped back); every vote of one judge is compared with every vote "
        "of the other. With two logs every judge group of A meets every group of B; with one, "
        "every two groups meet, and the judges within a group (e.g. human-human) too. A "
        "group is a judge, or all human:NAME judges (MT-Bench's expert_N, author_N).",
    )
    p.add_argument(
        "first",
        metavar="A.jsonl",
        help="a battle log in Chatbot Arena's schema with a judge field (and optionally turn)",
    )
    p.add_argument(
        "second",
        metavar="B.jsonl",
        nargs="?",
        default=None,
        help="a second battle log whose judges are compared with A's (default: A's judges "
        "with each other)",
    )
    p.add_argument("--json", action="store_true", help="print the agreement rows as JSON")
    p.set_defaults(handler=cmd_agree)


def _figure(agree: int, n: int, percent: float | None, kappa: float | None) -> str:
    if n == 0:
        return "-"
    return f"{agree}/{n} ({pct(percent, 0)}), kappa {'-' if kappa is None else f'{kappa:.2f}'}"


def cmd_agree(args: argparse.Namespace) -> int:
    """Print the agreement rows."""
    from arena.errors import InputError
    from arena.records.log_rows import WinnerCounts
    from arena.trust import load_votes, log_agreement

    read = {path: WinnerCounts() for path in (args.first, args.second) if path}
    first = load_votes(args.first, default_judge=_stem(args.first), counts=read[args.first])
    second = (
        load_votes(args.second, default_judge=_stem(args.second), counts=read[args.second])
        if args.second
        else None
    )
    for path, counts in read.items():
        if counts.summary():
            print(f"{path}: {counts.summary()}", file=sys.stderr)
    rows = log_agreement(first, second)
    if not rows:
        raise InputError(
            "no battle was judged by two different judges"
            + (" of the two logs" if second is not None else " in the log"),
            file=args.second or args.first,
        )
    if args.json:
        print(json_text([r.model_dump(mode="json") for r in rows]))
        return 0
    print(
        text_table(
            ["judges", "turn", "with ties", "without ties"],
            [
                [
                    f"{r.left} vs {r.right}" if r.left != r.right else f"{r.left} (within)",
                    "all" if r.turn is None else r.turn,
                    _figure(
                        r.agree_with_ties, r.with_ties.n, r.with_ties.percent, r.with_ties.kappa
                    ),
                    _figure(
                        r.agree_without_ties,
                        r.without_ties.n,
                        r.without_ties.percent,
                        r.without_ties.kappa,
                    ),
                ]
                for r in rows
            ],
        )
    )
    return 0


def _stem(path: str) -> str:
    from pathlib import Path

    return Path(path).stem

"""``arena battles export``: a run's judged battles as a battle log in Chatbot Arena's schema;
and the table ``arena ratings --battles`` prints for a log."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db, add_judge_key


@command("battles", order=90)
def register(sub: Any) -> None:
    """Add ``battles export``."""
    e = sub.add_parser("battles", help="export a run's judged battles as a battle log")
    esub = e.add_subparsers(dest="battles_command", required=True)
    x = esub.add_parser(
        "export",
        help="write a run's battles in Chatbot Arena's JSONL schema (question_id, model_a, "
        "model_b, winner, judge, turn, tstamp, with lengths and markdown counts)",
    )
    x.add_argument(
        "target",
        nargs="?",
        default=None,
        metavar="RUN",
        help="run id (default: latest); a FILE.jsonl here is read as --output",
    )
    x.add_argument("--run", type=int, default=None, help=argparse.SUPPRESS)
    add_judge_key(x)
    x.add_argument(
        "--orders",
        action="store_true",
        help="one row per order as the judge saw it (model_a shown first) instead of the "
        "combined verdict",
    )
    x.add_argument(
        "-o", "--output", default=None, metavar="FILE.jsonl", help="write here (default: stdout)"
    )
    add_db(x)
    x.set_defaults(handler=cmd_battles_export)


def _run_and_file(args: argparse.Namespace) -> tuple[int | None, str | None]:
    run, output = args.run, args.output
    if args.target is not None:
        if args.target.isdigit():
            run = int(args.target)
        elif output is None:
            output = args.target  # the older form: arena battles export FILE.jsonl
        else:
            from arena.errors import InputError

            raise InputError(f"RUN must be a run id, got {args.target!r}")
    return run, output


def cmd_battles_export(args: argparse.Namespace) -> int:
    """Write (or print) a run's judged battles as a JSONL battle log."""
    from arena.battle_log.writer import export_battle_log, jsonl, run_battle_log
    from arena.storage import Store

    run, output = _run_and_file(args)
    store = Store(args.db, read_only=True)
    if output is None:
        rows = run_battle_log(store, run, judge_key=args.judge_key, orders=args.orders)
        sys.stdout.write(jsonl(rows))
        return 0
    n = export_battle_log(store, output, run, judge_key=args.judge_key, orders=args.orders)
    print(f"wrote {n} battles to {output}")
    return 0


def print_log_ratings(args: argparse.Namespace, options: Any) -> int:
    """``arena ratings --battles FILE``: rate a battle log and print (or dump) the table,
    saying what was skipped; with ``--anchor``, each model's score against the anchor."""
    from arena.battle_log.options import LogCounts, anchor_score, parse_where
    from arena.battle_log.reader import load_battle_log
    from arena.leaderboard import model_ratings, rate_battles, style_effects
    from arena.reports._cells import effects_text, number
    from arena.reports._format import json_text, text_table

    counts = LogCounts()
    battles = load_battle_log(
        args.battles,
        style=options.style,
        where=parse_where(args.where),
        strong_weight=1.0 if args.strong_weight is None else args.strong_weight,
        counts=counts,
    )
    if counts.summary():
        print(f"{args.battles}: {counts.summary()}", file=sys.stderr)
    table = rate_battles(battles, options)
    rows = [r.model_dump() for r in model_ratings(table)]
    if options.anchor is not None:
        base = next(r["rating"] for r in rows if r["model"] == options.anchor)
        for r in rows:
            r["anchor_score"] = anchor_score(r["rating"], base)
            r["anchor_ci_low"] = anchor_score(r["ci_low"], base)
            r["anchor_ci_high"] = anchor_score(r["ci_high"], base)
    if args.json:
        print(json_text(rows))
        return 0
    headers = ["rank", "model", "rating", "95% CI", "elo", "win rate", "battles"]
    if options.anchor is not None:
        headers.append(f"vs {options.anchor} (95% CI)")
    print(
        text_table(
            headers,
            [
                [
                    r["rank"],
                    r["model"],
                    number(r["rating"]),
                    f"[{number(r['ci_low'])}, {number(r['ci_high'])}]",
                    number(r["elo"]),
                    number(r["win_rate"], ".1%"),
                    r["battles"],
                    *(
                        [
                            f"{number(r['anchor_score'], '.1f')}% "
                            f"({number(r['anchor_ci_low'], '.1f')}, "
                            f"{number(r['anchor_ci_high'], '.1f')})"
                        ]
                        if options.anchor is not None
                        else []
                    ),
                ]
                for r in rows
            ],
        )
    )
    text = effects_text(style_effects(table))
    if text:
        print(text)
    return 0

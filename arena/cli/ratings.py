"""``arena ratings``: a run's leaderboard or any Chatbot Arena battle log."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db, add_judge_key
from arena.defaults import BOOTSTRAP_ROUNDS
from arena.display import dollars, interval, percent, rank_text, rate_of, rating, tokens
from arena.errors import InputError
from arena.reports._cells import effects_text, number
from arena.reports._format import text_table


@command("ratings", order=70)
def register(sub: Any) -> None:
    """Add ``arena ratings``."""
    p = sub.add_parser(
        "ratings", help="leaderboard: Bradley-Terry with 95%% CIs, Elo, golden scores"
    )
    p.add_argument("run", nargs="?", type=int, default=None, help="run id (default: latest)")
    p.add_argument(
        "--battles",
        default=None,
        metavar="FILE.jsonl",
        help="rate a battle log in Chatbot Arena's schema instead of a run",
    )
    add_judge_key(p)
    p.add_argument(
        "--method",
        default=None,
        metavar="NAME",
        help="rating method (default: bt, or style-bt with --style-control; --methods lists them)",
    )
    p.add_argument("--methods", action="store_true", help="list the rating methods and exit")
    p.add_argument(
        "--bootstrap",
        type=int,
        default=None,
        metavar="N",
        help=f"bootstrap rounds (default {BOOTSTRAP_ROUNDS})",
    )
    p.add_argument("--seed", type=int, default=None, help="bootstrap seed (default 0)")
    p.add_argument(
        "--style-control",
        nargs="?",
        const="length",
        default=None,
        metavar="COVARIATES",
        help="style-controlled ratings; comma-separated covariates: length (the "
        "default), markdown (= headers,lists,bold), seat (seat A's advantage)",
    )
    p.add_argument(
        "--anchor",
        default=None,
        metavar="MODEL",
        help="pin MODEL at 1000; with --battles also show each model's win probability "
        "against it in %% with its interval (arena-hard style scores)",
    )
    p.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="--battles: keep only rows whose FIELD equals VALUE (JSON, else text; e.g. "
        "anony=true); repeat to require several",
    )
    p.add_argument(
        "--strong-weight",
        nargs="?",
        type=float,
        const=3.0,
        default=None,
        metavar="W",
        help="--battles: a strong verdict (strong: true, or an A>>B score) counts as W "
        "battles (arena-hard: 3, the value without W)",
    )
    p.add_argument(
        "--elo-rounds",
        type=int,
        default=None,
        metavar="N",
        help="shuffles of the order-independent Elo column (default: 100 up to 20,000 "
        "battles, none beyond, as it costs a sequential step per battle; 0 skips)",
    )
    p.add_argument(
        "--reg", type=float, default=None, help="L2 prior on log-strengths (default 0.1)"
    )
    p.add_argument("--json", action="store_true", help="print the leaderboard as JSON")
    add_db(p)
    p.set_defaults(handler=cmd_ratings)


#: RatingOptions field -> the flag that sets it, so errors name the flag.
FLAGS = {
    "method": "--method",
    "reg": "--reg",
    "bootstrap_rounds": "--bootstrap",
    "seed": "--seed",
    "style": "--style-control",
    "anchor": "--anchor",
    "elo_rounds": "--elo-rounds",
}


@contextmanager
def flag_errors() -> Iterator[None]:
    """Re-raise a RatingOptionError as bad input naming the command-line flag."""
    from arena.ratings import RatingOptionError

    try:
        yield
    except RatingOptionError as exc:
        raise InputError(f"{FLAGS.get(exc.option, exc.option)}: {exc.reason}") from None


def rating_options(args: argparse.Namespace) -> Any:
    """RatingOptions from the flags; unset flags keep the library's defaults."""
    from arena.ratings import RatingOptions

    given = {
        "method": args.method,
        "reg": args.reg,
        "bootstrap_rounds": args.bootstrap,
        "seed": args.seed,
        "style": args.style_control,
        "anchor": args.anchor,
        "elo_rounds": args.elo_rounds,
    }
    with flag_errors():
        return RatingOptions(**{k: v for k, v in given.items() if v is not None})


def cmd_ratings(args: argparse.Namespace) -> int:
    """Print the leaderboard (or the rating methods)."""
    if args.methods:
        from arena.ratings import rating_methods

        print(text_table(["method", "what"], [[k, v] for k, v in rating_methods().items()]))
        return 0
    options = rating_options(args)
    if args.battles:
        from arena.cli.battles import print_log_ratings

        with flag_errors():
            return print_log_ratings(args, options)
    from arena.leaderboard import build_leaderboard
    from arena.storage import Store

    with flag_errors():
        board = build_leaderboard(
            Store(args.db), args.run, judge_key=args.judge_key, options=options
        )
    if args.json:
        print(board.model_dump_json(indent=2))
        return 0
    print_leaderboard(board)
    return 0


def _method_text(board: Any) -> str:
    intervals = (
        f" with 95% query-bootstrap intervals ({board.bootstrap} rounds)"
        if any(e.ci_low is not None for e in board.entries)
        else ""
    )
    if board.method == "bt":
        return f"Bradley-Terry ratings{intervals}"
    if board.method == "style-bt":
        return f"Bradley-Terry ratings controlled for {', '.join(board.style)}{intervals}"
    return f"ratings by method {board.method}{intervals or ' (no intervals)'}"


def print_leaderboard(board: Any) -> None:
    """The leaderboard table, then in words: the best variant (or none proven yet), why
    variants share a rank, which have too few battles to rank, contradicted descriptions."""
    from arena.leaderboard import board_notes

    judge = f"judge {board.judge} ({board.judge_key})" if board.judge else "not judged yet"
    style = ", style-controlled" if board.style_control else ""
    print(f"leaderboard, run {board.run_id}, {judge}{style}; {_method_text(board)}")
    rows = [
        [
            rank_text(e.rank, e.battles),
            e.variant,
            rating(e.rating),
            interval(e.ci_low, e.ci_high, e.battles),
            rating(e.elo),
            percent(e.win_rate),
            e.battles,
            e.crashes,
            rate_of(e.critical_pass_rate, e.critical_cases),
            number(e.mean_score, ".2f"),
            dollars(e.cost_per_query),
            tokens(e.tokens_per_query),
            number(e.p90_latency_s, ".1f"),
        ]
        for e in board.entries
    ]
    print(
        text_table(
            [
                "rank",
                "variant",
                "rating",
                "95% CI",
                "elo",
                "win rate",
                "battles",
                "crashed",
                "critical pass",
                "golden score",
                "$/query",
                "tokens/query",
                "p90 s",
            ],
            rows,
        )
    )
    for note in board_notes(board.entries):
        print(note)
    print_effects(board.effects)


def print_effects(effects: list[Any]) -> None:
    """Fitted style covariates, if any: Elo points with 95% intervals."""
    text = effects_text(effects)
    if text:
        print(text)

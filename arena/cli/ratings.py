"""``arena ratings`` (a run's leaderboard, or any Chatbot Arena battle log) and ``arena compare``.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from arena.cli.common import add_db, table
from arena.cli.common import write_text as _write

EXIT_WORSE = 1


def register(sub: Any) -> None:
    """Add ratings and compare."""
    p = sub.add_parser("ratings", help="leaderboard: Bradley-Terry with 95%% CIs, Elo, golden "
                                       "scores")
    p.add_argument("run", nargs="?", type=int, default=None, help="run id (default: latest)")
    p.add_argument("--battles", default=None, metavar="FILE.jsonl",
                   help="rate a battle log in Chatbot Arena's schema instead of a run")
    p.add_argument("--judge", default=None, metavar="KEY", help="judge key (default: latest)")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap rounds")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--style-control", action="store_true",
                   help="length-adjusted ratings (answer-length covariate)")
    p.add_argument("--reg", type=float, default=None,
                   help="L2 prior on log-strengths (default 0.1)")
    p.add_argument("--json", action="store_true")
    add_db(p)
    p.set_defaults(handler=cmd_ratings)

    c = sub.add_parser("compare", help="is the candidate better, non-inferior, worse?")
    c.add_argument("--baseline", required=True, metavar="VARIANT")
    c.add_argument("--candidate", required=True, metavar="VARIANT")
    c.add_argument("--run", type=int, default=None)
    c.add_argument("--judge", default=None, metavar="KEY")
    c.add_argument("--margin", type=float, default=0.05)
    c.add_argument("--bootstrap", type=int, default=1000)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--markdown", default=None, metavar="FILE")
    c.add_argument("--json", action="store_true")
    add_db(c)
    c.set_defaults(handler=cmd_compare)


def _f(value: float | None, fmt: str = ".0f") -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) \
        else format(value, fmt)


def cmd_ratings(args: argparse.Namespace) -> int:
    """Print the leaderboard."""
    from arena.judging.ratings_io import DEFAULT_REG, load_battle_log, rating_rows

    reg = DEFAULT_REG if args.reg is None else args.reg
    if args.battles:
        rows, _ = rating_rows(load_battle_log(args.battles), bootstrap=args.bootstrap,
                              seed=args.seed, style_control=args.style_control, reg=reg)
        if args.json:
            print(json.dumps([r.model_dump() for r in rows], indent=2))
        else:
            print(table([[r.rank, r.model, _f(r.rating), f"[{_f(r.ci_low)}, {_f(r.ci_high)}]",
                          _f(r.elo), _f(r.win_rate, ".1%"), r.battles] for r in rows],
                        ["rank", "model", "rating", "95% CI", "elo", "win rate", "battles"]))
        return 0
    from arena.leaderboard import build_leaderboard
    from arena.storage import Store

    board = build_leaderboard(Store(args.db), args.run, judge_key=args.judge,
                              bootstrap=args.bootstrap, seed=args.seed,
                              style_control=args.style_control, reg=reg)
    if args.json:
        print(board.model_dump_json(indent=2))
        return 0
    print_leaderboard(board)
    return 0


def print_leaderboard(board: Any) -> None:
    """The leaderboard table."""
    judge = f"judge {board.judge} ({board.judge_key})" if board.judge else "not judged yet"
    style = ", length-controlled" if board.style_control else ""
    print(f"leaderboard, run {board.run_id}, {judge}{style}; Bradley-Terry ratings with 95% "
          f"query-bootstrap intervals ({board.bootstrap} rounds)")
    rows = [[_f(e.rank, "d") if e.rank else "-", e.variant, _f(e.rating),
             f"[{_f(e.ci_low)}, {_f(e.ci_high)}]" if e.rating is not None else "-", _f(e.elo),
             _f(e.win_rate, ".0%"), e.battles, _f(e.critical_pass_rate, ".0%"),
             _f(e.mean_score, ".2f"), _f(e.cost_per_query, ".5f"), _f(e.p90_latency_s, ".1f")]
            for e in board.entries]
    print(table(rows, ["rank", "variant", "rating", "95% CI", "elo", "win rate", "battles",
                       "critical pass", "golden score", "$/query", "p90 s"]))


def cmd_compare(args: argparse.Namespace) -> int:
    """Print the compare verdict; exit 1 unless better or non-inferior."""
    from arena.compare import compare_markdown, compare_variants
    from arena.storage import Store

    report = compare_variants(Store(args.db), args.baseline, args.candidate, run_id=args.run,
                              judge_key=args.judge, margin=args.margin,
                              bootstrap=args.bootstrap, seed=args.seed)
    if args.markdown:
        _write(args.markdown, compare_markdown(report))
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(report.summary)
        for reason in report.reasons:
            print(f"  - {reason}")
    return 0 if report.verdict in ("better", "non-inferior") else EXIT_WORSE

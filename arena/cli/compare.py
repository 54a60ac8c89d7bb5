"""``arena compare``: is the candidate better, non-inferior, worse or inconclusive?"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from arena.cli._commands import command
from arena.cli.common import (
    JUDGE_KEY_NOTE,
    TypedJudge,
    add_db,
    add_judge_key,
    add_margin,
    add_pair_flags,
    add_report_flags,
    add_stored_run,
)
from arena.cli.common import write_text as _write
from arena.cli.gate_flags import add_cost_limit_flags, cost_limits_from_flags
from arena.defaults import BOOTSTRAP_ROUNDS
from arena.errors import InputError

EXIT_WORSE = 1


@command("compare", order=80, uses_judge=True)
def register(sub: Any) -> None:
    """Add ``arena compare``."""
    c = sub.add_parser("compare", help="is the candidate better, non-inferior, worse?")
    add_pair_flags(
        c,
        baseline=("VARIANT", "the baseline variant"),
        candidate="the candidate variant",
        required=(True, True),
    )
    add_stored_run(c)
    add_judge_key(c, old_spelling=False)  # --judge is the judge spec of --sequential
    c.add_argument(
        "--judge",
        default=None,
        action=TypedJudge,
        metavar="SPEC",
        help="with --sequential: the judge spec or file, or none for golden scores only "
        "(default: arena.yaml's compare.judge, else the local model); without --sequential, "
        "the deprecated spelling of --judge-key",
    )
    add_margin(c, 0.05)
    c.add_argument(
        "--bootstrap",
        type=int,
        default=BOOTSTRAP_ROUNDS,
        help="bootstrap rounds of the judge's accuracy interval (the win-rate interval needs none)",
    )
    c.add_argument(
        "--seed",
        type=int,
        default=None,
        help="bootstrap seed (default 0); with --sequential, an explicit seed of "
        "the case order, recorded as explicit (default: derived from the run)",
    )
    add_report_flags(c, what="comparison")
    add_cost_limit_flags(c)  # a budget limit that fails makes the verdict "worse"
    from arena.cli.sequential import add_compare_flags

    add_compare_flags(c)
    add_db(c)
    c.set_defaults(handler=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    """Print the compare verdict; exit 1 unless better, non-inferior or identical answers."""
    if args.sequential:
        from arena.cli.sequential import cmd_compare_sequential

        if args.judge_key is not None:
            raise InputError(
                "--sequential judges the answers it runs: name the judge with --judge SPEC",
                field="--judge-key",
            )
        return cmd_compare_sequential(args)
    judge_key = args.judge_key
    if getattr(args, "judge_typed", False):  # without --sequential: old spelling of --judge-key
        print(JUDGE_KEY_NOTE, file=sys.stderr)
        judge_key = judge_key or args.judge
    from arena.compare._compare import compare_markdown, compare_variants
    from arena.ratings._options import check_count
    from arena.storage import Store

    try:
        check_count(args.bootstrap, minimum=1)
    except ValueError as exc:
        raise InputError(f"--bootstrap: {exc}") from None
    if not 0 < args.alpha < 1:
        raise InputError(f"--alpha must be in (0, 1), got {args.alpha}", field="--alpha")

    report = compare_variants(
        Store(args.db),
        args.baseline,
        args.candidate,
        run_id=args.run,
        judge_key=judge_key,
        margin=args.margin,
        bootstrap=args.bootstrap,
        seed=args.seed if args.seed is not None else 0,
        budget=cost_limits_from_flags(args),
        alpha=args.alpha,
    )
    if args.markdown:
        _write(args.markdown, compare_markdown(report))
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(report.summary)
        for reason in report.reasons:
            print(f"  - {reason}")
        _print_branches(report)
    return 0 if report.verdict in ("better", "non-inferior", "identical") else EXIT_WORSE


def _print_branches(report: Any) -> None:
    """How often each variant took each route through its graph, as a small table."""
    from arena.compare._routes import branch_rows
    from arena.reports._format import text_table

    if report.branches:
        variants = [report.baseline, report.candidate]
        print("\nroutes taken (results per route):")
        print(text_table(["route", *variants], branch_rows(report.branches, variants)))

"""``arena score``: golden scores, benchmarks and pass rates of a run.

Baselines and the gate on stored results (``arena baseline``, ``arena check``) are in
``arena.cli.baseline``; the whole gate (``arena gate``) in ``arena.cli.gate``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db
from arena.reports._score_formats import REPORT_FORMATS


@command("score", order=40)
def register(sub: Any) -> None:
    """Add score."""
    p = sub.add_parser("score", help="golden scores, benchmarks and pass rates of a run")
    p.add_argument(
        "run",
        nargs="?",
        type=int,
        default=None,
        help="run id (default: the latest golden run, not a shadow run)",
    )
    p.add_argument(
        "--grader",
        default=None,
        metavar="JUDGE",
        help="judge model spec for the behaviour rubric (default: keyword rules)",
    )
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument(
        "--format",
        default=None,
        metavar="NAME",
        help=f"report format (default: table): {REPORT_FORMATS.help_lines()}",
    )
    fmt.add_argument("--json", action="store_true", help="the same as --format json")
    fmt.add_argument("--markdown", action="store_true", help="the same as --format markdown")
    add_db(p)
    p.set_defaults(handler=cmd_score)


def cmd_score(args: argparse.Namespace) -> int:
    """Score a run and print it in the chosen report format."""
    from arena.evaluation.run_scores import make_grader, score_run
    from arena.reports._score_formats import REPORT_FORMATS, ScoreReport
    from arena.scoring._difficulty import difficulty_breakdown
    from arena.storage import Store

    name = args.format or ("json" if args.json else "markdown" if args.markdown else "table")
    render = REPORT_FORMATS.lookup(name)
    store = Store(args.db)
    run_id = store.run(args.run).id
    scores = score_run(store, run_id, make_grader(args.grader, store))
    replaced = scores.replaced.message() if scores.replaced else None
    if replaced:  # never silently: what the new grades replaced
        print(f"run {run_id}: {replaced}", file=sys.stderr)
    levels = {c.id: c.difficulty.value for c in store.run_dataset(run_id).test_cases}
    report = ScoreReport(
        run_id=run_id,
        grader=scores.grader,
        variants=scores.variants,
        cases=scores.cases,
        by_difficulty=difficulty_breakdown(scores.variants, levels),
    )
    print(render(report))
    return 0

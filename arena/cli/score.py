"""``arena score``: golden scores, benchmarks and pass rates of a run.

Baselines and the gate on stored results (``arena baseline``, ``arena check``) are in
``arena.cli.baseline``; the whole gate (``arena gate``) in ``arena.cli.gate``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from arena.cli.common import add_db
from arena.reports.format import text_table


def register(sub: Any) -> None:
    """Add score."""
    p = sub.add_parser("score", help="golden scores, benchmarks and pass rates of a run")
    p.add_argument("run", nargs="?", type=int, default=None, help="run id (default: latest)")
    p.add_argument(
        "--grader",
        default=None,
        metavar="JUDGE",
        help="judge model spec for the behaviour rubric (default: keyword rules)",
    )
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--markdown", action="store_true")
    add_db(p)
    p.set_defaults(handler=cmd_score)


def cmd_score(args: argparse.Namespace) -> int:
    """Score a run and print a table, JSON or Markdown."""
    from arena.evaluate import make_grader, score_run
    from arena.reports import scores_json, scores_markdown, scores_table
    from arena.scoring.difficulty import (
        difficulty_breakdown,
        difficulty_markdown,
        difficulty_rows,
    )
    from arena.storage import Store

    store = Store(args.db)
    run_id = store.run(args.run).id
    scores = score_run(store, run_id, make_grader(args.grader, store))
    levels = {c.id: c.difficulty.value for c in store.run_dataset(run_id).test_cases}
    by_difficulty = difficulty_breakdown(scores.variants, levels)
    if args.json:
        doc = scores_json(scores.variants, scores.cases)
        doc["by_difficulty"] = {
            v: {d: s.model_dump() for d, s in levels_.items()}
            for v, levels_ in by_difficulty.items()
        }
        print(json.dumps({"run_id": run_id, "grader": scores.grader, **doc}, indent=2))
    elif args.markdown:
        from arena.secrets import redact

        print(
            redact(
                scores_markdown(scores.variants, scores.cases, title=f"Golden scores, run {run_id}")
            )
        )
        print("\n" + difficulty_markdown(by_difficulty))
    else:
        print(f"run {run_id}, behaviour grader: {scores.grader}")
        print(scores_table(scores.variants, scores.cases))
        header, *rows = difficulty_rows(by_difficulty)
        print("\npass rate by difficulty (counted cases, passed/cases)")
        print(text_table(header, rows))
    return 0

"""``arena show RESULT_ID``: one trajectory, readably."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from arena.cli.common import add_db


def register(sub: Any) -> None:
    """Add the show sub-command."""
    p = sub.add_parser("show", help="print one result's trajectory")
    p.add_argument("result_id", type=int)
    p.add_argument("--json", action="store_true")
    add_db(p)
    p.set_defaults(handler=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    """Print a stored result."""
    from arena.runner._versions import version_story
    from arena.storage import Store

    store = Store(args.db)
    result = store.result(args.result_id)
    if args.json:
        print(result.model_dump_json(indent=2))
        return 0
    print(
        f"result {result.id}  run {result.run_id}  variant {result.variant} "
        f"({result.variant_hash})  case {result.case_id}  repeat {result.repeat}"
    )
    print(
        f"latency {result.latency_s:.2f} s  tokens {result.input_tokens}+"
        f"{result.output_tokens}  cost ${result.cost_usd:.5f}  model calls "
        f"{result.model_calls}"
    )
    print(version_story(store, result.variant, result.variant_hash))
    if result.error:
        print(f"ERROR: {result.error}")
    for step in result.steps:
        print(f"\n[{step.index}] {step.agent} -> {step.tool}({json.dumps(step.args)})")
        body = step.error or step.observation
        label = "error" if step.error else "observation"
        print(textwrap.indent(f"{label}: {body[:600]}", "    "))
    for path, text in result.files.items():
        print(f"\nfile {path}:\n{textwrap.indent(text[:600], '    ')}")
    print(f"\nfinal answer:\n{textwrap.indent(result.output or '(empty)', '    ')}")
    print_judge_details(store, result.run_id, args.result_id)
    return 0


def print_judge_details(store: Any, run_id: int | None, result_id: int) -> None:
    """What each judge's mode found about this answer (e.g. a checklist judge's items with
    their P(YES)), as the mode renders it."""
    from arena.battles._checklist_view import result_details

    if run_id is None:
        return
    for found in result_details(store.battles(run_id), result_id):
        lines = found.lines()
        if lines:
            print(f"\n{found.mode} of judge {found.judge}:")
            print(textwrap.indent("\n".join(lines), "    "))

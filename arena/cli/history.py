"""``arena history CASE``: when a case started failing (its last pass and first failure)."""

from __future__ import annotations

import argparse
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db
from arena.reports._format import text_table


@command("history", order=160)
def register(sub: Any) -> None:
    """Add the history sub-command."""
    p = sub.add_parser(
        "history", help="a case's pass and score in every stored run: when it started failing"
    )
    p.add_argument("case", help="golden case id")
    p.add_argument("--variant", default=None, help="only this variant")
    p.add_argument("--json", action="store_true", help="print the history as JSON")
    add_db(p)
    p.set_defaults(handler=cmd_history)


def cmd_history(args: argparse.Namespace) -> int:
    """Print the case's history per variant, and when it started failing."""
    from arena.gate._history import case_history
    from arena.storage import Store

    history = case_history(Store(args.db, read_only=True), args.case, args.variant)
    if args.json:
        print(history.model_dump_json(indent=2))
        return 0
    for entry in history.variants:
        rows = [
            [
                p.run_id,
                p.created_at.strftime("%Y-%m-%d %H:%M"),
                (p.provenance.get("commit") or "")[:10],
                p.provenance.get("branch", ""),
                f"{p.variant}@{p.variant_hash[:8]}",
                p.case_hash,
                f"{p.passes}/{p.n}",
                "pass" if p.passed else "FAIL",
                f"{p.score:.3f}",
            ]
            for p in entry.points
        ]
        print(f"case {history.case_id}, {entry.summary}")
        print(
            text_table(
                [
                    "run",
                    "created",
                    "commit",
                    "branch",
                    "version",
                    "case hash",
                    "passes",
                    "verdict",
                    "score",
                ],
                rows,
            )
        )
        if entry.first_fail is not None and entry.first_fail.fail_reasons:
            print(
                f"why it fails since run {entry.first_fail.run_id}: "
                f"{'; '.join(entry.first_fail.fail_reasons)}"
            )
        for note in dict.fromkeys(p.rules_note for p in entry.points if p.rules_note):
            print(f"note: {note}")
        print()
    return 0

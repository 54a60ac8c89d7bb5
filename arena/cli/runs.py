"""``arena runs``: list the stored runs, with where each came from."""

from __future__ import annotations

import argparse
import json
from typing import Any

from arena.cli.common import add_db
from arena.reports._format import text_table


def register(sub: Any) -> None:
    """Add ``arena runs``."""
    r = sub.add_parser("runs", help="list stored runs")
    r.add_argument("--json", action="store_true", help="print the runs as JSON")
    add_db(r)
    r.set_defaults(handler=cmd_runs)


def cmd_runs(args: argparse.Namespace) -> int:
    """List stored runs."""
    from arena.storage import Store

    runs = Store(args.db).runs()
    if args.json:
        print(json.dumps([r.model_dump(mode="json") for r in runs], indent=2))
        return 0
    if not runs:
        print("no runs stored yet: try `arena demo` or `arena run --variants ...`")
        return 0
    rows = [
        [
            r.id,
            r.created_at.strftime("%Y-%m-%d %H:%M"),
            r.status,
            r.dataset,
            ",".join(r.config.get("variants", {})),
            r.config.get("tier"),
            r.results,
            r.errors,
            *_provenance(r.config.get("provenance") or {}),
        ]
        for r in runs
    ]
    print(
        text_table(
            [
                "run",
                "created",
                "status",
                "dataset",
                "variants",
                "tier",
                "results",
                "errors",
                "commit",
                "branch",
                "CI run",
            ],
            rows,
        )
    )
    return 0


def _provenance(found: dict[str, str]) -> list[str]:
    """Commit (short), branch and CI run URL of a run, '-' where unknown."""
    return [
        found.get("commit", "")[:10] or "-",
        found.get("branch") or "-",
        found.get("ci_url") or "-",
    ]

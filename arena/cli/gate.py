"""``arena gate``: run, score, check, judge and compare a candidate against a baseline in one
command; write ``gate.md`` (a PR comment or step summary) and ``gate.json``; exit 0 pass,
1 fail, 2 bad input."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arena.cli.common import add_db
from arena.cli.common import write_text as _write
from arena.cli.gate_flags import add_gate_run_flags, add_limit_flags, gate_config


def register(sub: Any) -> None:
    """Add the gate sub-command."""
    p = sub.add_parser(
        "gate",
        help="the merge gate: run, score, check, judge, compare; exit 1 when the candidate fails",
    )
    p.add_argument(
        "--baseline",
        default=None,
        metavar="VARIANT|FILE",
        help="baseline variant (name or YAML), baseline JSON file or stored name "
        "(default: arena.yaml's)",
    )
    p.add_argument(
        "--candidate",
        default=None,
        metavar="VARIANT",
        help="candidate variant: its name (the `name:` in a file of the variants folder) or a "
        "YAML path (default: arena.yaml's)",
    )
    p.add_argument(
        "--report-dir",
        default=None,
        metavar="DIR",
        help="where gate.md and gate.json go (default: arena.yaml's, else reports)",
    )
    p.add_argument("--json", action="store_true", help="print the JSON report")
    from arena.cli.sequential import add_gate_flags

    add_gate_flags(p)
    add_gate_run_flags(p)
    add_limit_flags(p)
    add_db(p)
    p.set_defaults(handler=cmd_gate)


def cmd_gate(args: argparse.Namespace) -> int:
    """Run the gate, write its reports, print its verdict; exit 0 or 1."""
    from arena.errors import InputError
    from arena.gate.pipeline import run_gate
    from arena.gate.report import gate_markdown, gate_text
    from arena.storage import Store

    config = gate_config(args, default_file=True)
    baseline = args.baseline or config.baseline
    candidate = args.candidate or config.candidate
    if not baseline:
        raise InputError(
            "give --baseline VARIANT|FILE (or baseline: in arena.yaml)", field="--baseline"
        )
    if not candidate:
        raise InputError(
            "give --candidate VARIANT (or candidate: in arena.yaml)", field="--candidate"
        )
    report = run_gate(Store(args.db), config, baseline, candidate, progress=not args.json)
    folder = Path(args.report_dir or config.path(config.report_dir))
    _write(str(folder / "gate.md"), gate_markdown(report))
    _write(str(folder / "gate.json"), report.model_dump_json(indent=2))
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(gate_text(report), end="")
        print(f"reports: {folder / 'gate.md'}, {folder / 'gate.json'}")
    return report.exit_code

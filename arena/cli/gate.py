"""``arena gate``: run, score, check, judge and compare a candidate against a baseline in one
command; write ``gate.md`` (a PR comment or step summary) and ``gate.json``; exit 0 pass,
1 fail, 2 bad input."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db, add_pair_flags, add_report_flags
from arena.cli.gate_flags import add_gate_run_flags, add_limit_flags, gate_config


@command("gate", order=150, own_config=True)
def register(sub: Any) -> None:
    """Add the gate sub-command."""
    p = sub.add_parser(
        "gate",
        help="the merge gate: run, score, check, judge, compare; exit 1 when the candidate fails",
    )
    add_pair_flags(
        p,
        baseline=(
            "VARIANT|FILE",
            "baseline variant (name or YAML), baseline JSON file or stored name "
            "(default: arena.yaml's)",
        ),
        candidate="candidate variant: its name (the `name:` in a file of the variants folder) "
        "or a YAML path (default: arena.yaml's)",
    )
    p.add_argument(
        "--report-dir",
        default=None,
        metavar="DIR",
        help="where gate.md and gate.json go (default: arena.yaml's, else reports)",
    )
    add_report_flags(p, what="gate report", markdown=False)
    from arena.cli.sequential import add_gate_flags

    add_gate_flags(p)
    add_gate_run_flags(p)
    add_limit_flags(p)
    add_db(p)
    p.set_defaults(handler=cmd_gate)


def cmd_gate(args: argparse.Namespace) -> int:
    """Run the gate, write its reports, print its verdict; exit 0 or 1. Bad input writes a
    report saying what was wrong and re-raises (exit 2)."""
    from arena.errors import InputError
    from arena.gate._report import bad_input_report

    folder = report_folder(args, None)
    try:
        config = gate_config(args, default_file=True)
        folder = report_folder(args, config)
        _clear(folder)  # a gate that dies leaves no report of an earlier one behind
        report = _run(args, config)
    except InputError as exc:
        bad = bad_input_report(exc, baseline=args.baseline or "", candidate=args.candidate or "")
        _write_reports(folder, bad)
        raise
    _write_reports(folder, report)
    if args.json:
        print(report.to_json())
    else:
        from arena.gate._report import gate_text

        print(gate_text(report), end="")
        print(f"reports: {folder / REPORTS[0]}, {folder / REPORTS[1]}")
    return report.exit_code


def _run(args: argparse.Namespace, config: Any) -> Any:
    from arena.errors import InputError
    from arena.gate._pipeline import run_gate
    from arena.storage import Store

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
    return run_gate(Store(args.db), config, baseline, candidate, progress=not args.json)


REPORTS = ("gate.md", "gate.json")


def report_folder(args: argparse.Namespace, config: Any) -> Path:
    """``--report-dir``, else arena.yaml's ``report_dir`` (relative to the file), else
    ``reports`` beside the arena.yaml given (or here) when it cannot be read."""
    if args.report_dir:
        return Path(args.report_dir)
    if config is not None:
        return Path(config.path(config.report_dir))
    return (Path(args.config).parent if args.config else Path(".")) / "reports"


def _clear(folder: Path) -> None:
    for name in REPORTS:
        (folder / name).unlink(missing_ok=True)


def _write_reports(folder: Path, report: Any) -> None:
    """Both reports, each written whole (a temporary file renamed) or not at all."""
    from arena.gate._report import gate_markdown
    from arena.reports._format import terminal_safe

    texts = {REPORTS[0]: gate_markdown(report), REPORTS[1]: report.to_json()}
    texts = {name: terminal_safe(text) for name, text in texts.items()}  # both read in terminals
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        part = folder / f".{name}.part"
        try:
            part.write_text(text, encoding="utf-8")
            os.replace(part, folder / name)
        except BaseException:  # a full disk: no half-written part left behind
            part.unlink(missing_ok=True)
            raise

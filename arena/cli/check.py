"""``arena check``: the regression gate on stored results (exit 1 on a regression or a failed
limit); the whole gate, running and judging too, is ``arena gate``."""

from __future__ import annotations

import argparse
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db, add_pair_flags, add_report_flags, add_stored_run
from arena.cli.common import write_text as _write
from arena.cli.gate_flags import add_limit_flags, gate_config


@command("check", order=140)
def register(sub: Any) -> None:
    """Add ``arena check``."""
    c = sub.add_parser(
        "check",
        help="regression gate on stored results: exit 1 when the "
        "candidate regressed or a limit fails",
    )
    add_pair_flags(
        c,
        baseline=(
            "NAME|FILE",
            "stored baseline name or JSON file (default: 'baseline' if stored; "
            "none: absolute and cost limits only)",
        ),
        candidate="the variant checked (stored runs)",
        required=(False, True),
    )
    add_stored_run(c, "the candidate")
    add_report_flags(c, what="gate report")
    add_limit_flags(c)
    add_db(c)
    c.set_defaults(handler=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    """The gate on stored results; exit 1 on a regression or a failed limit."""
    from arena.gate._pipeline import check_stored
    from arena.gate._report import gate_markdown, gate_text
    from arena.storage import Store

    store = Store(args.db)
    config = gate_config(args)
    ref = args.baseline or config.baseline
    if ref is None and store.baseline("baseline") is not None:
        ref = "baseline"
    if ref is None and not (config.absolute.any() or config.budget.any()):
        ref = "baseline"  # the old default: a clear error when nothing is stored under it
    report = check_stored(store, config, args.candidate, ref, args.run)
    if args.markdown:
        _write(args.markdown, gate_markdown(report))
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(gate_text(report), end="")
    return report.exit_code

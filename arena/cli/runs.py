"""``arena runs``: list the stored runs, with where each came from."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from arena.cli.common import add_db

if TYPE_CHECKING:
    from arena.records.results import RunInfo
from arena.cli._commands import command
from arena.reports._format import json_text, text_table


@command("runs", order=20)
def register(sub: Any) -> None:
    """Add ``arena runs``."""
    r = sub.add_parser("runs", help="list stored runs")
    r.add_argument("--json", action="store_true", help="print the runs as JSON")
    r.add_argument(
        "--mutants",
        action="store_true",
        help="also list the runs of `arena mutate`'s mutants (a run per batch of each mutant; "
        "hidden by default, their number said)",
    )
    r.add_argument(
        "--mark-failed",
        type=int,
        default=None,
        metavar="RUN",
        help="mark a run that is not finished (killed while running, interrupted) as failed; "
        "its `arena run` command still resumes it",
    )
    add_db(r)
    r.set_defaults(handler=cmd_runs)


def cmd_runs(args: argparse.Namespace) -> int:
    """List stored runs."""
    from arena.storage import Store

    store = Store(args.db, read_only=args.mark_failed is None)
    if args.mark_failed is not None:
        store.mark_run_failed(args.mark_failed)
        print(
            f"run {args.mark_failed} marked failed; its `arena run` command (same variants, "
            "dataset, tier and repeats) resumes it"
        )
        return 0
    runs, hidden = listed_runs(store.runs(), mutants=args.mutants)
    if args.json:
        print(json_text([r.model_dump(mode="json") for r in runs]))
        return 0
    if not runs and not hidden:
        print("no runs stored yet: try `arena demo` or `arena run --variants ...`")
        return 0
    if runs:
        _print_table(runs)
    if hidden:
        print(hidden_note(hidden))
    return 0


def listed_runs(runs: list[RunInfo], *, mutants: bool = False) -> tuple[list[RunInfo], int]:
    """The runs ``arena runs`` lists and how many it hides: the runs of ``arena mutate``'s
    mutants (see :attr:`RunInfo.is_mutant`) unless ``mutants``."""
    if mutants:
        return runs, 0
    shown = [r for r in runs if not r.is_mutant]
    return shown, len(runs) - len(shown)


def hidden_note(hidden: int) -> str:
    """The line saying how many mutant runs the listing hides."""
    runs = "run" if hidden == 1 else "runs"
    return f"{hidden} {runs} of `arena mutate`'s mutants hidden (`arena runs --mutants` lists them)"


def _print_table(runs: list[RunInfo]) -> None:
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
    for status in UNFINISHED:
        ids = [r.id for r in runs if r.status == status]
        if ids:
            print(unfinished_hint(ids, status))


#: Statuses of a run some of whose tasks may never have run: its command resumes it.
UNFINISHED = ("running", "interrupted", "failed")


def unfinished_hint(run_ids: list[int], status: str = "running") -> str:
    """What to do with runs of one unfinished ``status``: resume them; a run still
    ``running`` may have been killed, so it may also be marked failed."""
    ids = ", ".join(map(str, run_ids))
    resume = "Rerun its `arena run` command (same variants, dataset, tier and repeats) to resume it"
    if status == "running":
        return (
            f"run(s) {ids} not finished: still `running`; if no `arena run` process is left, "
            f"it was killed. {resume}, or `arena runs --mark-failed {run_ids[0]}` to record it "
            "as failed."
        )
    return f"run(s) {ids} not finished ({status}): {resume}, reusing its finished results."


def _provenance(found: dict[str, str]) -> list[str]:
    """Commit (short), branch and CI run URL of a run, '-' where unknown."""
    return [
        found.get("commit", "")[:10] or "-",
        found.get("branch") or "-",
        found.get("ci_url") or "-",
    ]

"""``arena langsmith export|import|push``: datasets and experiments both ways."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_config, add_db, default_dataset
from arena.reports._format import json_text

SHOW_SKIPPED = 5


@command("langsmith", order=200)
def register(sub: Any) -> None:
    """Add the langsmith sub-command and its actions."""
    ls = sub.add_parser(
        "langsmith",
        help="LangSmith datasets and experiments (offline unless LANGSMITH_API_KEY is set)",
    )
    lsub = ls.add_subparsers(dest="action", required=True)

    exp = lsub.add_parser(
        "export",
        help="the golden set as LangSmith examples: a JSONL file, "
        "or uploaded when LangSmith is configured",
    )
    exp.add_argument(
        "dataset", nargs="?", default=default_dataset(), help="golden dataset JSON to export"
    )
    exp.add_argument(
        "--out",
        default=None,
        metavar="FILE.jsonl",
        help="write JSONL here (default: upload with LANGSMITH_API_KEY)",
    )
    exp.add_argument("--name", default=None, help="LangSmith dataset name (default: its name)")
    add_config(exp)
    exp.set_defaults(handler=cmd_export)

    imp = lsub.add_parser(
        "import", help="a LangSmith dataset (by name, or its JSONL/CSV export) into a golden file"
    )
    imp.add_argument("source", help="FILE.jsonl|FILE.csv|FILE.json, or a LangSmith dataset name")
    imp.add_argument(
        "--out", required=True, metavar="GOLDEN.json", help="golden file to create or extend"
    )
    imp.add_argument("--name", default=None, help="dataset name of a new golden file")
    imp.add_argument(
        "--category",
        default="happy_path",
        help="category of examples that have none (default: happy_path)",
    )
    imp.add_argument(
        "--tier",
        default="pending",
        choices=["pending", "standard", "critical"],
        help="tier of examples that have none (default: pending)",
    )
    imp.add_argument(
        "--tools",
        default=None,
        help="comma-separated available tools of a new file (default: from the "
        "examples, else the Research Agent's)",
    )
    imp.set_defaults(handler=cmd_import)

    push = lsub.add_parser(
        "push",
        help="a stored run as LangSmith experiments, golden scores "
        "as feedback, judge verdicts as comparative experiments",
    )
    push.add_argument("run", nargs="?", type=int, default=None, help="run id (default: latest)")
    push.add_argument("--name", default=None, help="LangSmith dataset name")
    push.add_argument("--json", action="store_true", help="print what was pushed as JSON")
    add_db(push)
    push.set_defaults(handler=cmd_push)


def cmd_export(args: argparse.Namespace) -> int:
    """Write JSONL, or upload when configured."""
    from arena.golden import load_dataset
    from arena.langsmith._client import langsmith_configured, make_client, upload_dataset
    from arena.langsmith._examples import case_to_example
    from arena.langsmith._files import write_jsonl

    dataset = load_dataset(args.dataset)
    if args.out:
        n = write_jsonl((case_to_example(c, dataset) for c in dataset.test_cases), args.out)
        print(f"{n} examples of {dataset.name} {dataset.version} written to {args.out}")
        return 0
    if not langsmith_configured():
        from arena.errors import InputError

        raise InputError(
            "LangSmith is not configured (LANGSMITH_API_KEY is unset): give "
            "--out FILE.jsonl to write the examples to a file",
            field="--out",
        )
    sync = upload_dataset(make_client("LANGSMITH_API_KEY"), dataset, args.name)
    state = "created" if sync.created else "updated"
    print(
        f"LangSmith dataset {sync.name!r} {state} ({sync.dataset_id}): {len(sync.added)} "
        f"added, {len(sync.updated)} updated, {sync.unchanged} unchanged"
    )
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """Read a file or a LangSmith dataset into a golden file."""
    from arena.langsmith._importer import import_examples

    source = str(args.source)
    tools = [t.strip() for t in args.tools.split(",") if t.strip()] if args.tools else None
    if Path(source).suffix.lower() in (".jsonl", ".csv", ".json") or Path(source).exists():
        from arena.langsmith._files import read_examples

        examples = read_examples(source)
    else:
        from arena.langsmith._client import fetch_examples, make_client

        examples, remote_tools = fetch_examples(make_client("source"), source)
        tools = tools or remote_tools or None
    report = import_examples(
        examples,
        args.out,
        source=source,
        name=args.name,
        available_tools=tools,
        category=args.category,
        tier=args.tier,
    )
    verb = "created" if report.created else "extended"
    print(
        f"{report.path} {verb}: {len(report.added)} case(s) added, {len(report.skipped)} "
        f"skipped; {report.dataset.name} {report.dataset.version}, content hash "
        f"{report.dataset.content_hash}"
    )
    skipped = list(report.skipped.items())
    for case_id, why in skipped[:SHOW_SKIPPED]:
        print(f"  skipped {case_id}: {why}")
    if len(skipped) > SHOW_SKIPPED:
        print(f"  ... and {len(skipped) - SHOW_SKIPPED} more")
    return 0


def cmd_push(args: argparse.Namespace) -> int:
    """Push a stored run."""
    from arena.langsmith._client import make_client
    from arena.langsmith._experiments import push_run
    from arena.storage import Store

    client = make_client("LANGSMITH_API_KEY")
    report = push_run(Store(args.db), args.run, client, dataset_name=args.name)
    if args.json:
        print(json_text(report.model_dump(mode="json")))
    else:
        print_push(report)
    return 0


def print_push(report: Any) -> None:
    """The human summary of a push."""
    sync = report.dataset
    print(
        f"run {report.run_id} -> LangSmith dataset {sync.name!r} ({len(sync.added)} examples "
        f"added, {len(sync.updated)} updated)"
    )
    for e in report.experiments:
        state = "created" if e.created else "already there, left as it is"
        print(
            f"  experiment {e.name!r}: {state}; {e.runs} runs, {e.feedback} feedback"
            + (f" {e.url}" if e.url else "")
        )
    for c in report.comparisons:
        state = f"{c.battles} battles" if c.created else "already there"
        print(f"  comparative experiment {c.name!r}: {state}")

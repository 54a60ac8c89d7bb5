"""``arena run`` and ``arena runs``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db
from arena.cli.executing import add_executor_flags
from arena.cli.plan import add_run_flags
from arena.reports._format import json_text, text_table


@command("run", order=10)
def register(sub: Any) -> None:
    """Add the run and runs sub-commands."""
    p = sub.add_parser("run", help="run variants on a golden dataset and store every trajectory")
    add_run_flags(p)
    p.add_argument("--timeout", type=float, default=600.0, help="per-case timeout in seconds")
    p.add_argument(
        "--retry-errors",
        action="store_true",
        help="rerun results that ended in an error instead of reusing them",
    )
    p.add_argument(
        "--allow-unoffered-tools",
        action="store_true",
        help="run cases that need a tool no variant offers, and let them fail, instead of "
        "refusing the run (the gate's baseline side uses it: older code may lack a new tool)",
    )
    p.add_argument(
        "--rerun",
        action="store_true",
        help="start a new run even when an identical one is stored: every agent runs again "
        "(results are reused only when the variant's version, which covers its config, "
        "agent code, tools and models, is unchanged; this forces a run anyway)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--langsmith",
        action="store_true",
        help="also record the run in LangSmith as experiments (LANGSMITH_API_KEY)",
    )
    add_executor_flags(p)  # --executor ray, --max-cost, --dry-run
    add_db(p)
    p.set_defaults(handler=cmd_run)


def cmd_run(args: argparse.Namespace) -> int:
    """Run the suite and print a summary or JSON."""
    from arena.cli import plan
    from arena.golden import load_dataset
    from arena.runner import RunOptions, check_run, run_suite
    from arena.runner._preflight import check_timeout
    from arena.runner._user_model import parse_user_model
    from arena.storage import Store

    check_timeout(args.timeout, field="--timeout")
    parse_user_model(args.user_model, field="--user-model")
    client = _langsmith_client() if args.langsmith else None
    variants = plan.run_variants(args)
    dataset = load_dataset(args.dataset)
    options = RunOptions(
        tier=args.tier,
        case_ids=args.cases.split(",") if args.cases else None,
        repeats=args.repeats,
        concurrency=args.concurrency,
        case_timeout_s=args.timeout,
        retry_errors=args.retry_errors,
        rerun=args.rerun,
        progress=not args.json,
        dataset_path=args.dataset,
        user_model=args.user_model,
        offered_tools_only=not args.allow_unoffered_tools,
    )
    check_run(variants, options)  # before the database is opened: bad input writes nothing
    from arena.models._pricing import unknown_price_notes

    for note in unknown_price_notes([v.model for v in variants]):
        print(note, file=sys.stderr)
    from arena.cli import executing

    executing.check_max_cost(args)
    if args.dry_run:  # the plan only: nothing is written, no model is called
        plan.print_plan(plan.run_plan(args, plan.read_store(args.db)), args.json)
        return 0
    executor = executing.base_executor(args)  # no Ray cluster: bad input, nothing written
    store = Store(args.db)
    options.executor, budget = executing.make_run_executor(args, store, executor)
    try:
        report = run_suite(store, dataset, variants, options)
    finally:
        if options.executor is not None:
            options.executor.close()
    executing.print_budget(budget, "tasks")
    pushed = None if client is None else _push(store, report.run_id, client)
    if args.json:
        doc = run_json(report)
        if budget is not None:
            doc["budget"] = budget.summary()
        if pushed is not None:
            doc["langsmith"] = pushed.model_dump(mode="json")
        print(json_text(doc))
    else:
        print_summary(report)
        if pushed is not None:
            from arena.cli.langsmith import print_push

            print_push(pushed)
    return 0


def _langsmith_client() -> Any:
    from arena.langsmith._client import make_client

    return make_client("--langsmith")  # InputError (exit 2) before anything runs when unset


def _push(store: Any, run_id: int, client: Any) -> Any:
    from arena.langsmith._experiments import push_run

    return push_run(store, run_id, client)


def run_json(report: Any) -> dict[str, Any]:
    """The documented JSON shape of ``arena run --json`` (API keys redacted from errors)."""
    from arena.secrets import redact_optional

    return {
        "run_id": report.run_id,
        "resumed": report.resumed,
        "reused_results": report.reused,
        "version_changes": report.changes,
        "model_calls": report.model_calls,
        "results": [
            {
                "id": r.id,
                "variant": r.variant,
                "variant_hash": r.variant_hash,
                "case_id": r.case_id,
                "repeat": r.repeat,
                "output": r.output,
                "tool_calls": [
                    {
                        "name": s.tool,
                        "args": s.args,
                        "agent": s.agent,
                        "error": redact_optional(s.error),
                    }
                    for s in r.steps
                ],
                "steps": len(r.steps),
                "model_calls": r.model_calls,
                "latency_s": r.latency_s,
                "input_tokens": r.input_tokens,
                "output_tokens": r.output_tokens,
                "cost_usd": r.cost_usd,
                "error": redact_optional(r.error),
                **(
                    {"dialogue": r.dialogue.model_dump(mode="json")}
                    if r.dialogue is not None
                    else {}
                ),
                **({"nodes": r.nodes.model_dump(mode="json")} if r.nodes is not None else {}),
            }
            for r in report.results
        ],
    }


def print_summary(report: Any) -> None:
    """The human summary of a run."""
    from arena.runner import summarize

    rows = [
        [
            s.variant,
            s.variant_hash,
            s.results,
            s.errors,
            s.mean_latency_s,
            s.tool_calls,
            s.input_tokens + s.output_tokens,
            "unknown" if s.cost_usd is None else f"${s.cost_usd:.4f}",
            s.model_calls,
        ]
        for s in summarize(report.results)
    ]
    state = "resumed" if report.resumed else "new"
    print(
        f"run {report.run_id} ({state}; {report.reused} results reused, "
        f"{report.model_calls} model calls sent)"
    )
    for name, changes in report.changes.items():
        print(f"  {name}: {'; '.join(changes) if changes else 'unchanged since its last run'}")
    print(
        text_table(
            [
                "variant",
                "version",
                "results",
                "errors",
                "mean latency s",
                "tool calls",
                "tokens",
                "cost",
                "model calls",
            ],
            rows,
        )
    )

"""``arena mutate``: mutation testing of a golden set (what would it miss?)."""

from __future__ import annotations

import argparse
import math
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_case_flags, add_db, default_dataset, write_text
from arena.defaults import ALL_TIERS
from arena.display import percent
from arena.errors import InputError
from arena.reports._format import json_text, terminal_safe, text_table

EXIT_BELOW_MIN_SCORE = 1
EXIT_NO_VERDICT = 2
"""Every mutant errored, or --min-score is given and a mutant errored or none counts."""


@command("mutate", order=230)
def register(sub: Any) -> None:
    """Add the mutate sub-command."""
    from arena.mutation._registry import MUTATION_OPERATORS as OPERATORS  # no pass code

    p = sub.add_parser(
        "mutate",
        help="mutation testing: inject faults into a variant's tools and config and report "
        "those its golden set does not catch",
    )
    p.add_argument("--variant", required=True, metavar="FILE", help="the variant YAML to mutate")
    add_case_flags(p, dataset=default_dataset(), tier=ALL_TIERS, repeats=1, concurrency=2)
    p.add_argument(
        "--operators",
        nargs="+",
        default=None,
        metavar="NAME",
        help="the operators to apply, space- or comma-separated (default: arena.yaml's "
        "mutation.operators, else all): "
        f"{OPERATORS.help_lines()}",
    )
    p.add_argument(
        "--min-score",
        type=float,
        default=None,
        metavar="X",
        help="exit 1 when the mutation score (killed / mutants neither equivalent nor "
        "errored) is below X, 2 when a mutant errored or none counts (default: arena.yaml's "
        "mutation.min_score)",
    )
    p.add_argument(
        "--full", action="store_true", help="run every case of every mutant (no stop at a kill)"
    )
    p.add_argument(
        "--weaker-model",
        default=None,
        metavar="SPEC",
        help="model_weaker's model (default: local:qwen2.5-coder-0.5b for a local variant)",
    )
    p.add_argument("--timeout", type=float, default=600.0, help="per-case timeout in seconds")
    p.add_argument(
        "--plan", action="store_true", help="print the pass's estimated runs, calls, cost, time"
    )
    p.add_argument(
        "--no-measure",
        action="store_true",
        help="with --plan: do not time a local model no stored run has timed (assume 2 s a call)",
    )
    p.add_argument(
        "--report",
        default="reports/mutate.md",
        metavar="FILE",
        help="the Markdown report (default: reports/mutate.md)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--executor", default="local", choices=["local", "ray"], help="where runs go")
    p.add_argument("--ray-address", default="auto", metavar="ADDRESS", help="the Ray cluster")
    p.add_argument("--ray-workers", type=int, default=None, metavar="N", help="Ray workers")
    p.add_argument(
        "--endpoint-concurrency", type=int, default=None, metavar="N", help=argparse.SUPPRESS
    )
    add_db(p)
    p.set_defaults(handler=cmd_mutate)


def _config_defaults(args: argparse.Namespace) -> Any:
    """``--min-score`` and ``--operators`` from ``arena.yaml``'s ``mutation:`` when not given
    (an unknown operator there names the file and ``mutation.operators``); returns its gate
    ``rules:`` (None without an ``arena.yaml``)."""
    from pathlib import Path

    from arena.gate import find_config, load_config
    from arena.mutation import operator

    args.min_score_flag = "--min-score"
    if args.operators is not None:
        named = [n.strip() for item in args.operators for n in item.split(",") if n.strip()]
        if not named:
            raise InputError(
                "names no operator; leave it out to apply them all", field="--operators"
            )
        args.operators = list(dict.fromkeys(named))  # a repeat is one operator
    found = Path(args.config) if args.config else find_config()
    if found is None:
        return None
    config = load_config(found)
    if args.min_score is None and config.mutation.min_score is not None:
        args.min_score = config.mutation.min_score
        args.min_score_flag = f"mutation.min_score of {found}"
    if args.operators is None and config.mutation.operators is not None:
        for name in config.mutation.operators:
            operator(name, file=str(found), field="mutation.operators")
        args.operators = config.mutation.operators
    return config.rules


def _check(args: argparse.Namespace) -> None:
    score = args.min_score
    if score is not None and not (math.isfinite(score) and 0 <= score <= 1):
        raise InputError(f"must be between 0 and 1, got {score:g}", field="--min-score")
    from arena.mutation import operator
    from arena.runner._preflight import check_timeout

    check_timeout(args.timeout, field="--timeout")
    for name in args.operators or []:
        operator(name)


def _options(args: argparse.Namespace) -> Any:
    from arena.mutation import MutationOptions

    return MutationOptions(
        operators=args.operators,
        tier=args.tier,
        case_ids=args.cases.split(",") if args.cases else None,
        repeats=args.repeats,
        concurrency=args.concurrency,
        case_timeout_s=args.timeout,
        full=args.full,
        weaker_model=args.weaker_model,
        dataset_path=args.dataset,
        progress=False,
    )


def cmd_mutate(args: argparse.Namespace) -> int:
    """Run (or plan) a mutation pass and print its report."""
    from arena.cli import executing
    from arena.golden import load_dataset
    from arena.mutation import check_mutation, mutation_markdown, run_mutation, unfounded_score
    from arena.storage import Store
    from arena.variants.variant import load_variant

    rules = _config_defaults(args)
    _check(args)
    variant = load_variant(args.variant)
    dataset = load_dataset(args.dataset)
    options = _options(args)
    options.rules = rules
    if args.plan:
        from arena.cli.plan import print_mutation_plan

        print_mutation_plan(args, variant, dataset, options)
        return 0
    if not args.json:
        options.on_mutant = _progress
    check_mutation(dataset, variant, options)  # a mutant that cannot run: nothing written
    options.executor = executing.base_executor(args)  # no Ray cluster: bad input, nothing written
    try:
        report = run_mutation(Store(args.db), dataset, variant, options)
    finally:
        if options.executor is not None:
            options.executor.close()
    write_text(args.report, mutation_markdown(report))
    if args.json:
        print(json_text(report.as_json(args.min_score)))
    else:
        _print_report(report, args.report)
    import sys

    reason = unfounded_score(report, args.min_score)
    if reason is not None:
        print(terminal_safe(f"arena: error: {reason}"), file=sys.stderr)
        return EXIT_NO_VERDICT
    if report.passes(args.min_score):
        return 0
    print(
        f"mutation score {percent(report.score)} ({len(report.killed)} of {report.counted} "
        f"mutants killed) is below {args.min_score_flag} {percent(args.min_score)}",
        file=sys.stderr,
    )
    return EXIT_BELOW_MIN_SCORE


def _progress(position: int, total: int, mutant: Any) -> None:
    import sys

    print(f"mutant {position}/{total} {mutant.id}: {mutant.verdict}", file=sys.stderr, flush=True)


def _print_report(report: Any, path: str) -> None:
    rows = [
        [m.id, {"survived": "SURVIVED", "errored": "ERRORED"}.get(m.verdict, m.verdict),
         ", ".join(m.killed_by) or "-", m.why_survived or m.error or ""]
        for m in report.mutants
    ]  # fmt: skip
    print(text_table(["mutant", "verdict", "killed by", "why it survived (or errored)"], rows))
    errored = f", {len(report.errored)} errored" if report.errored else ""
    print(
        terminal_safe(
            f"mutation score {percent(report.score)}: {len(report.killed)} of {report.counted} "
            f"mutants killed ({len(report.equivalent)} equivalent{errored}); "
            f"{report.model_calls} model calls sent; report: {path}"
        )
    )

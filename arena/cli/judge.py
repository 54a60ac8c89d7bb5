"""``arena judge``: pairwise battles for a stored run, both orders, with a progress bar, then
the judge's health (:mod:`arena.cli.health`)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from arena.cli._commands import command
from arena.cli.common import add_db
from arena.cli.executing import add_executor_flags, judging
from arena.cli.health import health_json, judge_health_with_accuracy, print_health
from arena.cli.outputs_flags import add_output_flags, read_outputs, stored_outputs
from arena.defaults import DEFAULT_JUDGE
from arena.reports._format import json_text, terminal_safe, text_table
from arena.vocabulary import ERROR, MODEL_A, MODEL_B, is_tie

if TYPE_CHECKING:
    pass


@command("judge", order=50, uses_judge=True)
def register(sub: Any) -> None:
    """Add the judge sub-command."""
    from arena.models.providers._registry import PROVIDERS
    from judges.modes._registry import JUDGE_MODES

    # read from the registries' sources: help imports no model library
    mode = PROVIDERS.declared_attribute(DEFAULT_JUDGE.partition(":")[0], "default_judge_mode")
    default = f"{DEFAULT_JUDGE}/{mode}"
    p = sub.add_parser("judge", help="judge every pair of variants of a run in both orders")
    p.add_argument(
        "run",
        nargs="?",
        type=int,
        default=None,
        help="run id (default: the latest golden run, not a shadow run)",
    )
    p.add_argument(
        "--judge",
        default=DEFAULT_JUDGE,
        help="judge model SPEC[/MODE] with MODE one of "
        f"{', '.join(JUDGE_MODES.listing())}, or a judge YAML file (default: {default})",
    )
    p.add_argument("--pairs", default="all", help="all | anchor:NAME | adaptive")
    from arena.cli.sequential import add_adaptive_flags  # --budget, --top

    add_adaptive_flags(p)
    p.add_argument(
        "--no-trajectory",
        dest="with_trajectory",
        action="store_false",
        default=None,
        help="hide each answer's tool calls from the judge (shown by default when the "
        "results have them)",
    )
    p.add_argument(
        "--with-trajectory", dest="with_trajectory", action="store_true", help=argparse.SUPPRESS
    )
    p.add_argument(
        "--with-graph-path",
        dest="with_graph_path",
        action="store_true",
        default=None,
        help="show the judge each answer's path through its LangGraph graph when both results "
        "have one (off by default: a judge that shows paths has its own key)",
    )
    p.add_argument(
        "--combine",
        choices=["logit", "average"],
        default=None,
        help="logprobs/grades: average the two orders' P(first better) (the default) or "
        "combine them in log-odds, which keeps the signal under a strong position preference",
    )
    p.add_argument(
        "--tie-margin",
        type=float,
        default=None,
        metavar="M",
        help="a fixed tie margin (a battle within M of P = 0.5 is a tie), as tie_margin in a "
        "judge file (default: calibrated on the run's golden pairs, else the margin learned "
        "for the mode on labelled pairs with ties)",
    )
    add_output_flags(p)  # --outputs, --questions, --turn: answers made elsewhere
    p.add_argument("--concurrency", type=int, default=2, help="judge requests at a time")
    p.add_argument(
        "--json", action="store_true", help="print the battles and the judge's health as JSON"
    )
    add_executor_flags(p)  # --executor ray, --max-cost, --dry-run
    add_db(p)
    p.set_defaults(handler=cmd_judge)


def cmd_judge(args: argparse.Namespace) -> int:
    """Judge a run and print the battle outcomes and the judge's health."""
    from arena.storage import Store
    from judges import parse_judge

    spec = parse_judge(args.judge)  # a bad judge fails before the database is touched
    update: dict[str, Any] = {}
    if args.with_trajectory is not None:
        update["with_trajectory"] = args.with_trajectory
    if args.with_graph_path:
        update["with_graph_path"] = True
    if args.combine:
        update["combine"] = args.combine
    if args.tie_margin is not None:
        if not 0.0 <= args.tie_margin < 0.5:
            print(f"error: --tie-margin {args.tie_margin}: expected 0 <= M < 0.5", file=sys.stderr)
            return 2
        update["tie_margin"] = args.tie_margin
    spec = spec.model_copy(update=update) if update else spec
    outputs = read_outputs(args)  # bad answer files fail before the database is touched
    store = Store(args.db)
    run_id = stored_outputs(store, outputs) or store.run(args.run).id
    if args.pairs == "adaptive":
        from arena.cli.sequential import cmd_judge_adaptive

        return cmd_judge_adaptive(args, store, run_id, spec)
    report, budget = judging(args, store, run_id, spec)
    if report is None:  # --dry-run: the plan was printed
        return 0
    for warning in report.warnings:
        print(terminal_safe(f"warning: {warning}"), file=sys.stderr)
    replaced = report.replaced_note()
    if replaced:  # never silently
        print(f"run {run_id}: {replaced}", file=sys.stderr)
    health = judge_health_with_accuracy(store, run_id, report.battles)
    if args.json:
        print(
            json_text(
                {
                    "run_id": run_id,
                    "judge": spec.model_dump(mode="json"),
                    "judge_key": spec.key,
                    "tie_margin": report.tie_margin,
                    "tie_margin_source": report.tie_margin_source,
                    "tie_margin_why": report.tie_margin_why,
                    "budget": budget.summary() if budget is not None else None,
                    "model_calls": report.model_calls,
                    "skipped": report.skipped,
                    "crashes": report.crashes,
                    "golden": report.golden,
                    "simulator_errors": report.simulator_errors,
                    "replaced": report.replaced,
                    "replaced_winners": report.replaced_winners,
                    "warnings": report.warnings,
                    "health": health_json(health) if health else None,
                    "battles": [b.model_dump(mode="json") for b in report.battles],
                },
                indent=2,
            )
        )
        return 0
    margin = "" if report.tie_margin is None else f"; tie margin {report.tie_margin:.3f}"
    if report.tie_margin is not None and report.tie_margin_why:
        margin += f" ({report.tie_margin_why})"
    print(
        f"run {run_id}: {len(report.battles)} battles judged by {spec.label} "
        f"(judge {spec.key}); {report.model_calls} model calls sent; "
        f"{report.skipped} pairs skipped (an answer is missing); {report.crashes} decided by "
        f"a crash (no judge call){margin}"
    )
    if report.golden:
        print(
            f"{report.golden} pairs of the same answer made differently (other calls or state "
            "changes) decided by the golden checks (no judge call)"
        )
    if report.simulator_errors:
        print(
            f"not judged: {report.simulator_errors} simulator errors (a simulated user "
            "failed; not the agent's fault)"
        )
    counts: dict[tuple[str, str], list[int]] = {}
    for b in report.battles:
        row = counts.setdefault((b.variant_a, b.variant_b), [0, 0, 0, 0, 0])
        row[2 if is_tie(b.winner) else {MODEL_A: 0, MODEL_B: 1, ERROR: 3}[b.winner]] += 1
        row[4] += b.flip
    print(
        text_table(
            ["A", "B", "A wins", "B wins", "ties", "errors", "flips"],
            [[a, b, *c] for (a, b), c in counts.items()],
        )
    )
    if health:
        print_health([health])
    return 0

"""``arena judge``: pairwise battles for a stored run, both orders, with a progress bar;
``arena health``: every judge's health, decisive-pair accuracy and agreements."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from arena.cli.common import add_db
from arena.cli.executing import add_executor_flags, judging
from arena.cli.outputs_flags import add_output_flags, read_outputs, stored_outputs
from arena.defaults import DEFAULT_JUDGE
from arena.reports.cells import accuracy_cell, kappa_text
from arena.reports.format import pct, text_table
from arena.vocabulary import ERROR, MODEL_A, MODEL_B, is_tie

if TYPE_CHECKING:
    from arena.battles import JudgeHealth, RunHealth
    from arena.storage import Store


def register(sub: Any) -> None:
    """Add the judge sub-command."""
    from judges.modes import default_mode, mode_names

    default = f"{DEFAULT_JUDGE}/{default_mode(DEFAULT_JUDGE.partition(':')[0])}"
    p = sub.add_parser("judge", help="judge every pair of variants of a run in both orders")
    p.add_argument("run", nargs="?", type=int, default=None, help="run id (default: latest)")
    p.add_argument(
        "--judge",
        default=DEFAULT_JUDGE,
        help="judge model SPEC[/MODE] with MODE one of "
        f"{', '.join(mode_names())}, or a judge YAML file (default: {default})",
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
        "--combine",
        choices=["logit", "average"],
        default=None,
        help="logprobs/grades: average the two orders' P(first better) (the default) or "
        "combine them in log-odds, which keeps the signal under a strong position preference",
    )
    add_output_flags(p)  # --outputs, --questions, --turn: answers made elsewhere
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--json", action="store_true")
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
    if args.combine:
        update["combine"] = args.combine
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
        print(f"warning: {warning}", file=sys.stderr)
    health = judge_health_with_accuracy(store, run_id, report.battles)
    if args.json:
        print(
            json.dumps(
                {
                    "run_id": run_id,
                    "judge": spec.model_dump(mode="json"),
                    "judge_key": spec.key,
                    "tie_margin": report.tie_margin,
                    "budget": budget.summary() if budget is not None else None,
                    "model_calls": report.model_calls,
                    "skipped": report.skipped,
                    "crashes": report.crashes,
                    "warnings": report.warnings,
                    "health": _health_json(health) if health else None,
                    "battles": [b.model_dump(mode="json") for b in report.battles],
                },
                indent=2,
            )
        )
        return 0
    margin = "" if report.tie_margin is None else f"; tie margin {report.tie_margin:.3f}"
    print(
        f"run {run_id}: {len(report.battles)} battles judged by {spec.label} "
        f"(judge {spec.key}); {report.model_calls} model calls sent; "
        f"{report.skipped} pairs skipped (an answer is missing); {report.crashes} decided by "
        f"a crash (no judge call){margin}"
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


def judge_health_with_accuracy(store: Store, run_id: int, battles: list[Any]) -> JudgeHealth | None:
    """A judge's health on the run, with its decisive-pair accuracy."""
    from arena.battles import golden_marks, judge_accuracy, judge_health
    from arena.evaluation.run_scores import load_run_scores

    if not battles:
        return None
    health = judge_health(battles)
    health.accuracy = judge_accuracy(battles, golden_marks(load_run_scores(store, run_id).cases))
    return health


def _health_json(health: JudgeHealth) -> dict[str, Any]:
    from arena.battles import health_warnings

    return {**health.model_dump(mode="json"), "warnings": health_warnings(health)}


def print_health(healths: list[JudgeHealth]) -> None:
    """The judge-health table, then the warnings its figures call for."""
    from arena.battles import health_warnings

    print("\njudge health")
    print(
        text_table(
            [
                "judge",
                "battles",
                "crashes",
                "consistent",
                "first wins",
                "longer wins",
                "ties",
                "errors",
                "self-judged",
                "decisive-pair accuracy [95% CI]",
            ],
            [
                [
                    h.judge,
                    h.battles,
                    h.crashes,
                    *[
                        pct(rate, 0, "-")
                        for rate in (
                            h.position_consistency,
                            h.first_position_win_rate,
                            h.longer_answer_win_rate,
                            h.tie_rate,
                            h.error_rate,
                        )
                    ],
                    h.self_judged,
                    accuracy_cell(h.accuracy),
                ]
                for h in healths
            ],
        )
    )
    for health in healths:
        warnings = health_warnings(health)
        if warnings:
            print(f"warning: judge {health.judge} ({health.judge_key}): {', '.join(warnings)}")


def register_health(sub: Any) -> None:
    """Add the health sub-command."""
    p = sub.add_parser(
        "health", help="judge health, decisive-pair accuracy, judge-judge and human agreement"
    )
    p.add_argument("run", nargs="?", type=int, default=None, help="run id (default: latest)")
    p.add_argument(
        "--human",
        default=None,
        metavar="FILE.jsonl",
        help="human votes to add to those cast in the app: Chatbot Arena rows (question_id, "
        "model_a, model_b, winner[, judge, turn, repeat]) or case_id, variant_a, variant_b, "
        "winner[, repeat]",
    )
    p.add_argument(
        "--combinations",
        action="store_true",
        help="measure every way of combining a probability judge's two orders on this run",
    )
    p.add_argument("--json", action="store_true")
    add_db(p)
    p.set_defaults(handler=cmd_health)


def cmd_health(args: argparse.Namespace) -> int:
    """Print every judge's health on a run, and agreements."""
    from arena.battles import load_votes, run_health
    from arena.cli.combinations import combination_figures, print_combinations
    from arena.errors import InputError
    from arena.storage import Store

    votes = load_votes(args.human, default_judge="human") if args.human else []
    store = Store(args.db)
    run_id = store.run(args.run).id
    if not store.judge_keys(run_id):
        raise InputError(f"run {run_id} has no battles: run `arena judge {run_id}` first")
    report = run_health(store, run_id, human_votes=votes)
    combos = combination_figures(store, run_id) if args.combinations else {}
    if args.json:
        doc = report.model_dump(mode="json")
        doc["health"] = [_health_json(h) for h in report.health]
        if args.combinations:
            doc["combinations"] = {
                key: [row.model_dump(mode="json") for row in rows] for key, rows in combos.items()
            }
        print(json.dumps(doc, indent=2))
        return 0
    print_health(report.health)
    print_agreements(report)
    for key, rows in combos.items():
        print_combinations(key, rows)
    return 0


def print_agreements(report: RunHealth) -> None:
    """Judge-judge, judge-human and human-human agreement lines."""
    for row in report.judge_agreement:
        print(
            f"agreement {' vs '.join(row.judges)}: {pct(row.percent, 0, '-')} over {row.n} "
            f"battles, Cohen's kappa {'-' if row.kappa is None else f'{row.kappa:.2f}'}"
        )
    if report.human_votes:
        print(
            f"{report.human_votes} human votes by {len(report.humans)} "
            f"{'person' if len(report.humans) == 1 else 'people'}"
        )
    for human in report.human_agreement:
        print(
            f"agreement {human.judge} ({human.label}) vs humans: with ties "
            f"{pct(human.percent, 0, '-')} of {human.n} (kappa "
            f"{'-' if human.kappa is None else f'{human.kappa:.2f}'}); without ties "
            f"{pct(human.without_ties.percent, 0, '-')} of {human.without_ties.n} (kappa "
            f"{kappa_text(human.without_ties)})"
        )
    if report.human_human is not None:
        print(
            f"agreement between people: {pct(report.human_human.percent, 0, '-')} of "
            f"{report.human_human.n} (kappa {kappa_text(report.human_human)})"
        )

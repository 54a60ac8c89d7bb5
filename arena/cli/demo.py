"""``arena demo``: the whole pipeline on the embedded defaults.

Run three variants on the critical tier with the local model, score them against the golden
dataset, judge every pair in both orders with the local model as judge, then print the
leaderboard and whether the cheaper model is good enough.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db, default_dataset
from arena.defaults import BOOTSTRAP_ROUNDS, DEFAULT_JUDGE
from arena.paths import data_dir
from arena.reports._format import terminal_safe

DEMO_VARIANTS = ("baseline", "prompt-v2", "small-model")
DEMO_JUDGE = DEFAULT_JUDGE
SECOND_JUDGE = "local:qwen2.5-coder-1.5b/grades"


@command("demo", order=100)
def register(sub: Any) -> None:
    """Add the demo sub-command."""
    p = sub.add_parser("demo", help="run, score, judge and rank the demo variants locally")
    p.add_argument(
        "--variants",
        nargs="+",
        default=list(DEMO_VARIANTS),
        metavar="NAME",
        help="variant names of the shipped variants (data/variants; default: %(default)s)",
    )
    p.add_argument("--tier", default="critical", help="the golden cases' tier to run")
    p.add_argument(
        "--cases",
        nargs="+",
        default=None,
        metavar="ID",
        help="only these case ids of the tier (default: every case of the tier)",
    )
    p.add_argument("--judge", default=DEMO_JUDGE, help="judge spec (default: %(default)s)")
    p.add_argument(
        "--second-judge",
        default=SECOND_JUDGE,
        help="a second judge whose health and agreement are shown beside the first "
        "('none' to skip; default: %(default)s)",
    )
    p.add_argument(
        "--concurrency", type=int, default=2, help="agent runs and judge requests at a time"
    )
    p.add_argument(
        "--bootstrap", type=int, default=BOOTSTRAP_ROUNDS, help="bootstrap rounds of the ratings"
    )
    add_db(p)
    p.set_defaults(handler=cmd_demo)


def _step(number: int, steps: int, text: str) -> None:
    print(f"\n== {number}/{steps} {text}", file=sys.stderr, flush=True)


def step_count(judges: int) -> int:
    """The demo's steps: run, golden scores, one per judge, leaderboard and compare."""
    return 3 + judges


def cmd_demo(args: argparse.Namespace) -> int:
    """Run the demo pipeline and print summary, scores, leaderboard and compare verdict."""
    from arena.battles import judge_run
    from arena.cli.next_steps import next_steps
    from arena.cli.run import print_summary
    from arena.evaluation.run_scores import score_run
    from arena.golden import load_dataset
    from arena.reports import scores_table
    from arena.runner import RunOptions, run_suite
    from arena.storage import Store
    from arena.variants.variant import load_variants
    from judges import parse_judge

    store = Store(args.db)
    variants = load_variants([str(data_dir() / "variants" / f"{n}.yaml") for n in args.variants])
    dataset_path = default_dataset()
    specs = [parse_judge(args.judge)]
    if args.second_judge and args.second_judge != "none":
        specs.append(parse_judge(args.second_judge))
    steps = step_count(len(specs))
    _step(1, steps, f"running {', '.join(args.variants)} on the {args.tier} tier")
    report = run_suite(
        store,
        load_dataset(dataset_path),
        variants,
        RunOptions(
            tier=args.tier,
            case_ids=args.cases,
            concurrency=args.concurrency,
            dataset_path=dataset_path,
        ),
    )
    print_summary(report)
    _step(2, steps, "golden scores")
    scores = score_run(store, report.run_id)
    print(scores_table(scores.variants, scores.cases))
    battles: list[list[Any]] = []
    # The main judge goes last, so it is the one `arena ratings` and the app show by default.
    for number, spec in enumerate(reversed(specs), start=3):
        _step(number, steps, f"judging every pair in both orders with {spec.label}")
        judged = judge_run(store, report.run_id, spec, concurrency=args.concurrency)
        for warning in judged.warnings:
            print(terminal_safe(f"warning: {warning}"), file=sys.stderr)
        margin = "" if judged.tie_margin is None else f", tie margin {judged.tie_margin:.3f}"
        print(
            f"{spec.label}: {len(judged.battles)} battles, {judged.model_calls} judge calls "
            f"sent{margin}"
        )
        battles.insert(0, judged.battles)
    print_outcome(store, report.run_id, specs, battles, args.variants, args.bootstrap)
    print(f"\nstored in {store.url}")
    print("\n".join(next_steps(args.db)))
    return 0


def print_outcome(
    store: Any,
    run_id: int,
    specs: list[Any],
    battles: list[list[Any]],
    variants: list[str],
    bootstrap: int = BOOTSTRAP_ROUNDS,
) -> None:
    """Print the end of the demo from a judged run: judge health, agreement, leaderboard, verdict.

    Reads only the store (no model call), so ``benchmarks/docs_figures.py`` quotes exactly what
    the demo prints.

    Args:
        store: the database the demo filled.
        run_id: the demo's run.
        specs: the judges, the main one first.
        battles: each judge's battles on the run, in the order of ``specs``.
        variants: the names of the variants that ran.
        bootstrap: bootstrap rounds for the ratings' and the verdict's intervals.
    """
    from arena.cli.combinations import combination_figures, print_combinations
    from arena.cli.health import judge_health_with_accuracy, print_health
    from arena.cli.ratings import print_leaderboard
    from arena.compare._compare import compare_variants
    from arena.leaderboard import build_leaderboard
    from arena.ratings import RatingOptions
    from arena.trust import judge_agreement

    if all(battles):
        print_health([h for b in battles if (h := judge_health_with_accuracy(store, run_id, b))])
    if len(battles) == 2 and all(battles):
        agree = judge_agreement(battles[0], battles[1])
        print(
            f"the two judges agree on {agree.percent or 0:.0%} of {agree.n} battles "
            f"(Cohen's kappa {agree.kappa if agree.kappa is not None else float('nan'):.2f})"
        )
    other = specs[1].key if len(specs) > 1 else None
    for key, rows in combination_figures(store, run_id, only=specs[0].key, reference=other).items():
        print_combinations(key, rows)
    spec = specs[0]
    _step(step_count(len(specs)), step_count(len(specs)), "leaderboard and compare")
    print_leaderboard(
        build_leaderboard(
            store,
            run_id,
            judge_key=spec.key,
            options=RatingOptions(bootstrap_rounds=bootstrap),
        )
    )
    if {"baseline", "small-model"} <= set(variants):
        verdict = compare_variants(
            store,
            "baseline",
            "small-model",
            run_id=run_id,
            judge_key=spec.key,
            bootstrap=bootstrap,
        )
        print(f"\nIs the cheaper model good enough? {verdict.summary}")
    if len(specs) > 1:
        print(
            f"(the {specs[1].label} judge's leaderboard: "
            f"`arena ratings --judge-key {specs[1].key}`)"
        )

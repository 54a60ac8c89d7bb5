"""``--sequential`` for ``arena compare`` and ``arena gate``: decide case by case, stop once
settled (docs/sequential.md)."""

from __future__ import annotations

import argparse
from typing import Any

from arena.cli.common import add_case_flags
from arena.cli.common import write_text as _write
from arena.cli.plan import add_user_model_flag
from arena.defaults import ALL_TIERS


def add_gate_flags(p: argparse.ArgumentParser) -> None:
    """``arena gate --sequential [--batch N]`` (each overrides its arena.yaml key)."""
    g = p.add_argument_group("sequential (stops once the decision is settled)")
    _add_sequential(
        g,
        None,
        "run, score and judge case by case in a seeded random order; stop once worse "
        "or non-inferior is settled, or a critical case breaks",
    )
    _add_batch(g, None)
    g.add_argument(
        "--sequential-seed",
        type=int,
        default=None,
        metavar="N",
        help="an explicit seed of the case order, recorded as explicit (default: derived "
        "from the dataset and variant versions)",
    )
    _add_boundary(g)
    _add_strict(g, default=None)


def _add_sequential(g: Any, default: bool | None, help_text: str) -> None:
    g.add_argument("--sequential", action="store_true", default=default, help=help_text)


def _add_batch(g: Any, default: int | None) -> None:
    g.add_argument(
        "--batch", type=int, default=default, metavar="N", help="cases between two looks (1)"
    )


def _add_boundary(g: Any) -> None:
    g.add_argument(
        "--boundary",
        choices=["spending", "anytime"],
        default=None,
        help="a new sequence's boundary: spending (default: valid up to the case budget, "
        "stops early for futility; a rerun may not raise the budget) or anytime (valid at "
        "every number of cases, so a rerun may raise the budget; less power). A stored "
        "sequence keeps its own",
    )


def _add_strict(g: Any, default: bool | None) -> None:
    g.add_argument(
        "--strict-critical",
        action="store_true",
        default=default,
        help="declare the agents deterministic: a critical case the baseline passes in every "
        "repeat and the candidate fails in every one blocks at once, one repeat included "
        "(default: only when that is rare between equal agents, or by an exact test)",
    )


def add_compare_flags(c: argparse.ArgumentParser) -> None:
    """``arena compare --sequential`` and what it runs."""
    g = c.add_argument_group(
        "sequential (runs the variants: --judge is then a judge spec, 'none' for golden scores)"
    )
    _add_sequential(g, False, "run case by case until settled")
    add_case_flags(g, dataset=None, tier=ALL_TIERS, repeats=1, concurrency=2, variants_dir=True)
    add_user_model_flag(g)
    g.add_argument(
        "--alpha",
        type=float,
        default=0.05,
        help="error rate (two-sided; 0.05: 95%% intervals); without --sequential, that of "
        "the win rate's interval",
    )
    _add_batch(g, 1)
    g.add_argument("--max-cases", type=int, default=None, metavar="N", help="case budget")
    _add_boundary(g)
    g.add_argument(
        "--futility",
        type=float,
        default=None,
        metavar="P",
        help="spending boundary: stop as undecided once the chance of a decision by the "
        "budget is under P (default 0.02; 0: never)",
    )
    g.add_argument(
        "--finite",
        action="store_true",
        help="decide about these cases' realised outcomes (sampling without replacement); "
        "refused when outcomes are stochastic unless --allow-stochastic-finite",
    )
    g.add_argument(
        "--allow-stochastic-finite",
        action="store_true",
        help="--finite even when repeats or the judge's two orders disagree: the decision is "
        "then about these realised outcomes only",
    )
    _add_strict(g, default=False)
    g.add_argument("--retry-errors", action="store_true", help="rerun errored tasks")


def cmd_compare_sequential(args: argparse.Namespace) -> int:
    """Run the sequential comparison, print where and why it stopped; exit like compare."""
    from arena.compare.sequential._driver import SequentialOptions, run_sequential
    from arena.compare.sequential._report import sequential_markdown
    from arena.defaults import DEFAULT_JUDGE
    from arena.errors import InputError
    from arena.gate._pipeline import resolve_variant
    from arena.golden import load_dataset
    from arena.paths import data_dir
    from arena.project._config import GateConfig, RunSection
    from arena.runner import RunOptions
    from arena.sequential import FUTILITY
    from arena.storage import Store
    from judges import parse_judge

    if args.run is not None:
        raise InputError("--sequential runs the variants itself: drop --run", field="--run")
    config = GateConfig(run=RunSection(variants_dir=args.variants_dir))
    baseline = resolve_variant(args.baseline, config, "--baseline")
    candidate = resolve_variant(args.candidate, config, "--candidate")
    path = args.dataset or str(data_dir() / "golden" / "research_agent.json")
    judge_text = args.judge or DEFAULT_JUDGE
    judge = None if judge_text.strip().lower() in ("none", "off") else parse_judge(judge_text)
    run = RunOptions(
        tier=args.tier,
        case_ids=[c.strip() for c in args.cases.split(",")] if args.cases else None,
        repeats=args.repeats,
        concurrency=args.concurrency,
        retry_errors=args.retry_errors,
        progress=False,
        dataset_path=path,
        user_model=args.user_model,
    )
    options = SequentialOptions(
        alpha=args.alpha,
        margin=args.margin,
        seed=args.seed,  # None unless given: derived from the run
        batch=args.batch,
        max_cases=args.max_cases,
        finite=args.finite,
        allow_stochastic_finite=args.allow_stochastic_finite,
        strict_critical=args.strict_critical,
        boundary=args.boundary,
        futility=FUTILITY if args.futility is None else args.futility,
    )
    if args.allow_stochastic_finite and not args.finite:
        raise InputError("--allow-stochastic-finite only applies with --finite", field="--finite")
    store = Store(args.db)
    report = run_sequential(store, load_dataset(path), baseline, candidate, judge, run, options)
    _print(args, report, sequential_markdown(report))
    return 0 if report.verdict in ("better", "non-inferior") else 1


def _print(args: argparse.Namespace, report: Any, markdown: str) -> None:
    if args.markdown:
        _write(args.markdown, markdown)
    if args.json:
        print(report.model_dump_json(indent=2))
        return
    print(report.summary)
    for reason in report.reasons:
        print(f"  - {reason}")


def add_adaptive_flags(p: argparse.ArgumentParser) -> None:
    """``arena judge --pairs adaptive [--budget N] [--top K]``."""
    p.add_argument(
        "--budget",
        type=int,
        default=None,
        metavar="N",
        help="--pairs adaptive: at most N battles (pair x case, both orders) this time",
    )
    p.add_argument(
        "--top",
        type=int,
        default=1,
        metavar="K",
        help="--pairs adaptive: stop once the top K are separated at 95%% (default 1)",
    )


def cmd_judge_adaptive(args: argparse.Namespace, store: Any, run_id: int, spec: Any) -> int:
    """Judge adaptively and print why it stopped and the ranking."""
    from arena.compare.sequential._adaptive_judge import judge_adaptive
    from arena.errors import InputError

    if args.budget is not None and args.budget < 1:
        raise InputError("--budget must be at least 1", field="--budget")
    report = judge_adaptive(store, run_id, spec, budget=args.budget, top_k=args.top)
    if args.json:
        print(report.model_dump_json(indent=2))
        return 0
    print(
        f"run {run_id}: {report.judged_now} battles judged adaptively by {spec.label} "
        f"({report.model_calls} model calls; {report.battles} of the {report.all_pairs} "
        f"all-pairs battles stored); stopped: {report.stopped_because}"
    )
    print("ranking: " + " > ".join(report.ranking))
    return 0

"""``arena plan``, and the flags ``arena run`` / ``arena judge`` share for where work runs and
what it may cost: ``--executor``, ``--ray-address``, ``--ray-workers``,
``--endpoint-concurrency``, ``--max-cost``, ``--dry-run``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from arena.cli.common import add_db, default_dataset
from arena.reports.format import text_table

if TYPE_CHECKING:
    from arena.executors import Executor
    from arena.plan import Budget, JudgePlan, Plan
    from arena.storage import Store


def register(sub: Any) -> None:
    """Add the plan sub-command."""
    p = sub.add_parser("plan", help="before spending: tasks, judge requests, what is cached, "
                                    "estimated tokens, cost and wall time")
    p.add_argument("--variants", nargs="+", required=True, metavar="FILE",
                   help="variant YAML files")
    p.add_argument("--dataset", default=default_dataset(), help="golden dataset JSON")
    p.add_argument("--tier", default="all", choices=["critical", "standard", "pending", "all"])
    p.add_argument("--cases", default=None, help="comma-separated case ids")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--retry-errors", action="store_true",
                   help="plan to rerun results that ended in an error")
    p.add_argument("--judge", default=None, metavar="SPEC",
                   help="also plan `arena judge --judge SPEC` of the run")
    p.add_argument("--pairs", default="all", help="all | anchor:NAME")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_db(p)
    p.set_defaults(handler=cmd_plan)


def add_executor_flags(p: argparse.ArgumentParser) -> None:
    """--executor, the Ray options, --max-cost and --dry-run."""
    p.add_argument("--executor", default="local", choices=["local", "ray"],
                   help="where the work runs: this process, or a Ray cluster")
    p.add_argument("--ray-address", default="auto", metavar="ADDRESS",
                   help="the Ray cluster: auto (this machine's cluster or $RAY_ADDRESS), "
                        "HOST:PORT or ray://HOST:PORT (default: auto)")
    p.add_argument("--ray-workers", type=int, default=None, metavar="N",
                   help="worker processes on the cluster (default: one per CPU)")
    p.add_argument("--endpoint-concurrency", type=int, default=None, metavar="N",
                   help="with --executor ray: requests in flight per model endpoint across "
                        "the whole cluster (default: --concurrency)")
    p.add_argument("--max-cost", type=float, default=None, metavar="USD",
                   help="stop cleanly (finished work kept) before the spend would pass USD")
    p.add_argument("--dry-run", action="store_true",
                   help="print the plan (counts, cache, estimated cost) and do nothing")


def check_max_cost(args: argparse.Namespace) -> None:
    """--max-cost must be a non-negative number of dollars (InputError naming the flag)."""
    import math

    from arena.errors import InputError

    if args.max_cost is not None and not (math.isfinite(args.max_cost) and args.max_cost >= 0):
        raise InputError(f"must be a number of dollars >= 0, got {args.max_cost:g}",
                         field="--max-cost")


def read_store(url: str | None) -> Store | None:
    """The database to plan against, without creating or writing anything: None when it holds
    no arena data yet (a missing or empty SQLite file, no tables)."""
    from arena.errors import InputError
    from arena.storage import Store, database_problem
    from arena.storage.engine import check_url, resolve_url, url_origin

    resolved = resolve_url(url)
    check_url(resolved, url_origin(url))
    problem = database_problem(resolved)
    if problem is None:
        return Store(url)
    if problem.kind in ("missing", "empty", "no_tables"):
        return None
    detail = problem.detail or problem.kind
    raise InputError(f"{url_origin(url)}: cannot read the database ({detail})")


def run_plan(args: argparse.Namespace, store: Store | None, judge: str | None = None) -> Plan:
    """The plan of ``arena run`` with these arguments (and ``arena judge --judge judge``)."""
    from arena.golden import load_dataset
    from arena.plan import plan_run
    from arena.variants import load_variants
    from judges import parse_judge

    spec = parse_judge(judge) if judge else None
    return plan_run(store, load_dataset(args.dataset), load_variants(args.variants),
                    tier=args.tier, case_ids=args.cases.split(",") if args.cases else None,
                    repeats=args.repeats, retry_errors=args.retry_errors,
                    concurrency=args.concurrency, judge=spec,
                    pairs=getattr(args, "pairs", "all"))


def cmd_plan(args: argparse.Namespace) -> int:
    """Print the plan of a run (and its judging)."""
    plan = run_plan(args, read_store(args.db), args.judge)
    print_plan(plan, args.json)
    return 0


def print_plan(plan: Plan, as_json: bool = False) -> None:
    """The plan as JSON or as tables."""
    if as_json:
        print(json.dumps(plan.model_dump(mode="json"), indent=2))
        return
    state = f"resumes run {plan.run_id}" if plan.run_id is not None else "a new run"
    print(f"plan: {state}; {plan.tasks} agent tasks: {plan.stored} stored, "
          f"{plan.to_run} to run (concurrency {plan.concurrency})")
    print(text_table(
        ["variant", "model", "tasks", "stored", "to run", "calls", "tokens in", "tokens out",
         "cost", "wall", "estimated from"],
        [[v.variant, v.model, v.tasks, v.stored, v.to_run, v.calls, v.input_tokens,
          v.output_tokens, f"${v.cost_usd:.4f}", _duration(v.wall_s), v.per_task.source]
         for v in plan.variants]))
    if plan.judge is not None:
        print_judge_plan(plan.judge)
    print(f"total: about ${plan.cost_usd:.4f} and {_duration(plan.wall_s)}")


def print_judge_plan(plan: JudgePlan) -> None:
    """One judge's plan as a table."""
    print(f"\njudge {plan.judge} ({plan.judge_key})")
    print(text_table(
        ["pairs", "skipped", "identical", "not yet answered", "requests", "cached", "to send",
         "tokens in", "tokens out", "cost", "wall", "estimated from"],
        [[plan.pairs, plan.skipped, plan.ties, plan.estimated_pairs, plan.calls, plan.cached,
          plan.to_send, plan.input_tokens, plan.output_tokens, f"${plan.cost_usd:.4f}",
          _duration(plan.wall_s), plan.per_call.source]]))


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def make_run_executor(args: argparse.Namespace, store: Store
                      ) -> tuple[Executor | None, Budget | None]:
    """The executor of ``arena run`` (None: inline) and its budget (None: no --max-cost)."""
    executor = _base_executor(args)
    if args.max_cost is None:
        return executor, None
    from arena.executors import BudgetedExecutor, LocalExecutor
    from arena.plan import Budget

    plan = run_plan(args, store)
    priors = {v.variant: v.per_task.cost_usd if v.per_task.measured or not v.per_task.cost_usd
              else None for v in plan.variants}
    budget = Budget(args.max_cost, priors)
    _warn(plan.cost_usd, args.max_cost, f"{plan.to_run} tasks")
    return BudgetedExecutor(executor or LocalExecutor(), budget), budget


def make_judge_executor(args: argparse.Namespace, plan: JudgePlan | None
                        ) -> tuple[Executor | None, Budget | None]:
    """The executor of ``arena judge`` and its budget (``plan`` is needed for --max-cost)."""
    executor = _base_executor(args)
    if args.max_cost is None or plan is None:
        return executor, None
    from arena.executors import BudgetedExecutor, LocalExecutor
    from arena.executors.budgeted import JUDGE_LINE
    from arena.plan import Budget

    asked = plan.pairs - plan.ties
    per_pair = (plan.calls / asked if asked else 2) * plan.per_call.cost_usd
    budget = Budget(args.max_cost, {JUDGE_LINE: per_pair})
    _warn(plan.cost_usd, args.max_cost, f"{plan.to_send} judge requests")
    return BudgetedExecutor(executor or LocalExecutor(), budget, plan.per_call.cost_usd), budget


def _base_executor(args: argparse.Namespace) -> Executor | None:
    if args.executor == "local":
        return None
    from arena.executors import RayExecutor

    executor = RayExecutor(args.ray_address, workers=args.ray_workers,
                           endpoint_concurrency=args.endpoint_concurrency or args.concurrency)
    executor.connect()  # no cluster is bad input, found before anything is written
    return executor


def _warn(estimate: float, limit: float, what: str) -> None:
    if estimate > limit:
        print(f"warning: {what} are estimated at ${estimate:.4f}, above --max-cost "
              f"${limit:.4f}: the command stops before the spend would pass it",
              file=sys.stderr)


def print_budget(budget: Budget | None, what: str) -> None:
    """Say on stderr that --max-cost stopped the command, and how to go on."""
    if budget is None or not budget.stopped:
        return
    print(f"stopped by --max-cost ${budget.limit_usd:.4f}: about ${budget.spent_usd:.4f} "
          f"spent; the {what} not started are left for a rerun (finished work is stored)",
          file=sys.stderr)


def judging(args: argparse.Namespace, store: Store, run_id: int, spec: Any
            ) -> tuple[Any, Budget | None]:
    """``arena judge`` of a stored run with --executor / --max-cost / --dry-run: the
    JudgeReport and the budget, or (None, None) after printing the plan of --dry-run."""
    from arena.judging import judge_run
    from arena.plan import plan_stored_judge

    check_max_cost(args)
    judge_plan = None
    if args.dry_run or args.max_cost is not None:
        judge_plan = plan_stored_judge(store, run_id, spec, pairs=args.pairs,
                                       concurrency=args.concurrency)
    if args.dry_run:
        assert judge_plan is not None
        if args.json:
            print(json.dumps(judge_plan.model_dump(mode="json"), indent=2))
        else:
            print_judge_plan(judge_plan)
        return None, None
    executor, budget = make_judge_executor(args, judge_plan)
    try:
        report = judge_run(store, run_id, spec, pairs=args.pairs, concurrency=args.concurrency,
                           progress=not args.json, executor=executor)
    finally:
        if executor is not None:
            executor.close()
    print_budget(budget, "pairs")
    return report, budget

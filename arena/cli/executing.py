"""The flags ``arena run`` and ``arena judge`` share for where work runs and what it may
cost: ``--executor``, ``--ray-address``, ``--ray-workers``, ``--endpoint-concurrency``,
``--max-cost``, ``--dry-run``; and building the executor they name."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from arena.cli.plan import print_judge_plan, run_plan
from arena.reports._format import json_text

if TYPE_CHECKING:
    from arena.executors import Executor
    from arena.plan import Budget, JudgePlan
    from arena.storage import Store


def add_executor_flags(p: argparse.ArgumentParser) -> None:
    """--executor, the Ray options, --max-cost and --dry-run."""
    p.add_argument(
        "--executor",
        default="local",
        choices=["local", "ray"],
        help="where the work runs: this process, or a Ray cluster",
    )
    p.add_argument(
        "--ray-address",
        default="auto",
        metavar="ADDRESS",
        help="the Ray cluster: auto (this machine's cluster or $RAY_ADDRESS), "
        "HOST:PORT or ray://HOST:PORT (default: auto)",
    )
    p.add_argument(
        "--ray-workers",
        type=int,
        default=None,
        metavar="N",
        help="worker processes on the cluster (default: one per CPU)",
    )
    p.add_argument(
        "--endpoint-concurrency",
        type=int,
        default=None,
        metavar="N",
        help="with --executor ray: requests in flight per model endpoint across "
        "the whole cluster (default: --concurrency)",
    )
    p.add_argument(
        "--max-cost",
        type=float,
        default=None,
        metavar="USD",
        help="stop cleanly (finished work kept) before the spend would pass USD",
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print the plan (counts, cache, estimated cost) and do nothing",
    )


def check_max_cost(args: argparse.Namespace) -> None:
    """--max-cost must be a non-negative number of dollars (InputError naming the flag)."""
    import math

    from arena.errors import InputError

    if args.max_cost is not None and not (math.isfinite(args.max_cost) and args.max_cost >= 0):
        raise InputError(
            f"must be a number of dollars >= 0, got {args.max_cost:g}", field="--max-cost"
        )


def make_run_executor(
    args: argparse.Namespace, store: Store, executor: Executor | None
) -> tuple[Executor | None, Budget | None]:
    """``executor`` (None: inline) behind the --max-cost budget, and the budget (None: no
    --max-cost)."""
    if args.max_cost is None:
        return executor, None
    from arena.executors import BudgetedExecutor, LocalExecutor
    from arena.plan import Budget

    plan = run_plan(args, store)
    priors = {
        v.variant: v.per_task.cost_usd if v.per_task.measured or not v.per_task.cost_usd else None
        for v in plan.variants
    }
    budget = Budget(args.max_cost, priors)
    _warn(plan.cost_usd, args.max_cost, f"{plan.to_run} tasks")
    return BudgetedExecutor(executor or LocalExecutor(), budget), budget


def make_judge_executor(
    args: argparse.Namespace, plan: JudgePlan | None, executor: Executor | None
) -> tuple[Executor | None, Budget | None]:
    """``executor`` behind the --max-cost budget (``plan`` is needed for it), and the budget."""
    if args.max_cost is None or plan is None:
        return executor, None
    from arena.executors import BudgetedExecutor, LocalExecutor
    from arena.executors._budgeted import JUDGE_LINE
    from arena.plan import Budget

    asked = plan.pairs - plan.ties
    per_pair = (plan.calls / asked if asked else 2) * plan.per_call.cost_usd
    budget = Budget(args.max_cost, {JUDGE_LINE: per_pair})
    _warn(plan.cost_usd, args.max_cost, f"{plan.to_send} judge requests")
    return BudgetedExecutor(executor or LocalExecutor(), budget, plan.per_call.cost_usd), budget


def base_executor(args: argparse.Namespace) -> Executor | None:
    """The executor --executor names (None: inline, in this process), connected."""
    if args.executor == "local":
        return None
    from arena.executors import RayExecutor

    executor = RayExecutor(
        args.ray_address,
        workers=args.ray_workers,
        endpoint_concurrency=args.endpoint_concurrency or args.concurrency,
    )
    executor.connect()  # no cluster is bad input, found before anything is written
    return executor


def _warn(estimate: float, limit: float, what: str) -> None:
    if estimate > limit:
        print(
            f"warning: {what} are estimated at ${estimate:.4f}, above --max-cost "
            f"${limit:.4f}: the command stops before the spend would pass it",
            file=sys.stderr,
        )


def print_budget(budget: Budget | None, what: str) -> None:
    """Say on stderr that --max-cost stopped the command, and how to go on."""
    if budget is None or not budget.stopped:
        return
    print(
        f"stopped by --max-cost ${budget.limit_usd:.4f}: about ${budget.spent_usd:.4f} "
        f"spent; the {what} not started are left for a rerun (finished work is stored)",
        file=sys.stderr,
    )


def judging(
    args: argparse.Namespace, store: Store, run_id: int, spec: Any
) -> tuple[Any, Budget | None]:
    """``arena judge`` of a stored run with --executor / --max-cost / --dry-run: the
    JudgeReport and the budget, or (None, None) after printing the plan of --dry-run."""
    from arena.battles import judge_run
    from arena.plan import plan_stored_judge

    check_max_cost(args)
    judge_plan = None
    if args.dry_run or args.max_cost is not None:
        judge_plan = plan_stored_judge(
            store, run_id, spec, pairs=args.pairs, concurrency=args.concurrency
        )
    if args.dry_run:
        assert judge_plan is not None
        if args.json:
            print(json_text(judge_plan.model_dump(mode="json")))
        else:
            print_judge_plan(judge_plan)
        return None, None
    executor, budget = make_judge_executor(args, judge_plan, base_executor(args))
    try:
        report = judge_run(
            store,
            run_id,
            spec,
            pairs=args.pairs,
            concurrency=args.concurrency,
            progress=not args.json,
            executor=executor,
        )
    finally:
        if executor is not None:
            executor.close()
    print_budget(budget, "pairs")
    return report, budget

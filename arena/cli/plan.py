"""``arena plan``: before spending, the tasks and judge requests a command would make, what
the database already holds, and the estimated tokens, cost and wall time."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from arena.cli._commands import command
from arena.cli.common import add_case_flags, add_db, default_dataset
from arena.defaults import ALL_TIERS
from arena.reports._format import json_text, text_table

if TYPE_CHECKING:
    from arena.plan import JudgePlan, Plan
    from arena.storage import Store
    from arena.variants.variant import Variant


@command("plan", order=120)
def register(sub: Any) -> None:
    """Add the plan sub-command."""
    p = sub.add_parser(
        "plan",
        help="before spending: tasks, judge requests, what is cached, "
        "estimated tokens, cost and wall time",
    )
    add_run_flags(p)
    p.add_argument(
        "--retry-errors", action="store_true", help="plan to rerun results that ended in an error"
    )
    p.add_argument(
        "--judge",
        default=None,
        metavar="SPEC",
        help="also plan `arena judge --judge SPEC` of the run",
    )
    p.add_argument("--pairs", default="all", help="all | anchor:NAME")
    p.add_argument(
        "--no-measure",
        action="store_true",
        help="do not time a local: model that no stored run has timed (one short request); "
        "assume 2 s per call instead",
    )
    p.add_argument(
        "--mutate",
        action="store_true",
        help="plan a mutation pass of the one variant instead (`arena mutate --plan`, all "
        "operators)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_db(p)
    p.set_defaults(handler=cmd_plan)


def add_run_flags(p: argparse.ArgumentParser) -> None:
    """The flags that choose a run's tasks, shared by ``arena run`` and ``arena plan`` (what
    :func:`run_plan` reads): --variants, --dataset, --variants-dir, --tier, --cases, --repeats,
    --concurrency."""
    p.add_argument(
        "--variants",
        nargs="+",
        required=True,
        metavar="VARIANT",
        help="variant YAML files, or names (the `name:` of a file in --variants-dir)",
    )
    add_case_flags(
        p, dataset=default_dataset(), tier=ALL_TIERS, repeats=1, concurrency=2, variants_dir=True
    )
    add_user_model_flag(p)


def add_user_model_flag(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """--user-model: the model spec that plays simulated users (conversation cases)."""
    p.add_argument(
        "--user-model",
        default=None,
        metavar="SPEC",
        help="model that plays the simulated users of conversation cases whose case names "
        "none (default: local:qwen2.5-coder-1.5b); part of those cases' fingerprint",
    )


def run_variants(args: argparse.Namespace) -> list[Variant]:
    """The variants --variants names (files, or names in --variants-dir)."""
    from arena.gate import resolve_variants

    return resolve_variants(args.variants, args.variants_dir, "--variants")


def read_store(url: str | None) -> Store | None:
    """The database to plan against, without creating or writing anything: None when it holds
    no arena data yet (a missing or empty SQLite file, no tables)."""
    from arena.errors import InputError
    from arena.storage import Store, database_problem
    from arena.storage._engine import check_url, resolve_url, url_origin

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
    from arena.runner._user_model import parse_user_model
    from judges import parse_judge

    spec = parse_judge(judge) if judge else None
    user_model = parse_user_model(getattr(args, "user_model", None), field="--user-model")
    return plan_run(
        store,
        load_dataset(args.dataset),
        run_variants(args),
        tier=args.tier,
        case_ids=args.cases.split(",") if args.cases else None,
        repeats=args.repeats,
        retry_errors=args.retry_errors,
        concurrency=args.concurrency,
        judge=spec,
        pairs=getattr(args, "pairs", "all"),
        measure=not getattr(args, "no_measure", False),
        user_model=user_model,
    )


def cmd_plan(args: argparse.Namespace) -> int:
    """Print the plan of a run (and its judging), or of a mutation pass (``--mutate``)."""
    if args.mutate:
        return _plan_mutation(args)
    plan = run_plan(args, read_store(args.db), args.judge)
    print_plan(plan, args.json)
    return 0


def _plan_mutation(args: argparse.Namespace) -> int:
    from arena.errors import InputError
    from arena.golden import load_dataset
    from arena.mutation import MutationOptions

    variants = run_variants(args)
    if len(variants) != 1:
        raise InputError("--mutate plans the mutation pass of one variant", field="--variants")
    options = MutationOptions(
        tier=args.tier,
        case_ids=args.cases.split(",") if args.cases else None,
        repeats=args.repeats,
        concurrency=args.concurrency,
    )
    print_mutation_plan(args, variants[0], load_dataset(args.dataset), options)
    return 0


def print_plan(plan: Plan, as_json: bool = False) -> None:
    """The plan as JSON or as tables."""
    if as_json:
        print(json_text(plan.model_dump(mode="json")))
        return
    state = f"resumes run {plan.run_id}" if plan.run_id is not None else "a new run"
    print(
        f"plan: {state}; {plan.tasks} agent tasks: {plan.stored} stored, "
        f"{plan.to_run} to run (concurrency {plan.concurrency})"
    )
    print(
        text_table(
            [
                "variant",
                "model",
                "tasks",
                "stored",
                "to run",
                "calls",
                "tokens in",
                "tokens out",
                "cost",
                "wall",
                "estimated from",
            ],
            [
                [
                    v.variant,
                    v.model,
                    v.tasks,
                    v.stored,
                    v.to_run,
                    v.calls,
                    v.input_tokens,
                    v.output_tokens,
                    f"${v.cost_usd:.4f}",
                    _duration(v.wall_s),
                    v.per_task.source,
                ]
                for v in plan.variants
            ],
        )
    )
    if plan.conversations is not None:
        print(conversations_line(plan))
    if plan.judge is not None:
        print_judge_plan(plan.judge)
    print(f"total: about ${plan.cost_usd:.4f} and {_duration(plan.wall_s)}")


def conversations_line(plan: Plan) -> str:
    """What the run's conversation cases cost in calls, said in one line."""
    c = plan.conversations
    assert c is not None
    line = (
        f"conversations: {c.cases} of {c.of} cases are dialogues: one agent invocation per "
        f"user turn ({c.agent_turns} turns per variant and repeat at most: max_turns, or 1 + "
        "the scripted turns), each with its tool calls, in 'calls'"
    )
    if c.simulated:
        to_run = sum(v.user_calls for v in plan.variants)
        line += (
            f"; {c.simulated} with a simulated user: one call per user turn after the first "
            f"({c.user_turns} per variant and repeat, {to_run} to run), at the user model's "
            "price and speed in 'cost' and 'wall'"
        )
    return line


def print_judge_plan(plan: JudgePlan) -> None:
    """One judge's plan as a table."""
    print(f"\njudge {plan.judge} ({plan.judge_key})")
    print(
        text_table(
            [
                "pairs",
                "skipped",
                "identical",
                "not yet answered",
                "requests",
                "cached",
                "to send",
                "tokens in",
                "tokens out",
                "cost",
                "wall",
                "estimated from",
            ],
            [
                [
                    plan.pairs,
                    plan.skipped,
                    plan.ties,
                    plan.estimated_pairs,
                    plan.calls,
                    plan.cached,
                    plan.to_send,
                    plan.input_tokens,
                    plan.output_tokens,
                    f"${plan.cost_usd:.4f}",
                    _duration(plan.wall_s),
                    plan.per_call.source,
                ]
            ],
        )
    )
    if plan.simulator_errors:
        print(
            f"not judged: {plan.simulator_errors} pairs with a simulator error (the simulated "
            "user failed, not the agent)"
        )
    if plan.unanswered:
        print(f"not judged: {plan.unanswered} pairs with an answer missing (resume the run first)")


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def print_mutation_plan(args: argparse.Namespace, variant: Any, dataset: Any, options: Any) -> None:
    """Print the plan of a mutation pass (``arena mutate --plan``, ``arena plan --mutate``)."""
    from arena.mutation import plan_mutation

    measure = not getattr(args, "no_measure", False)
    plan = plan_mutation(read_store(args.db), dataset, variant, options, measure=measure)
    _print_mutation_plan(plan, args.json)


def _print_mutation_plan(plan: Any, as_json: bool) -> None:
    if as_json:
        print(json_text(plan.model_dump(mode="json")))
        return
    operators = ", ".join(f"{k} {v}" for k, v in plan.by_operator.items())
    stored = f"; {plan.stored} already run to their verdict" if plan.stored else ""
    print(f"mutants: {plan.mutants} ({operators}){stored}")
    print("the original's run:")
    print_plan(plan.original)
    low, high = plan.at_least, plan.at_most
    print(
        f"the mutants: {low.tasks} to {high.tasks} runs, {low.calls} to {high.calls} model "
        f"calls, ${low.cost_usd:.4f} to ${high.cost_usd:.4f}, {low.wall_s:.0f} s to "
        f"{high.wall_s:.0f} s (only the cases the original passes run; a mutant stops after "
        "the batch holding its first kill unless --full)"
    )

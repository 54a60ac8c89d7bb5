"""``arena judge``: pairwise battles for a stored run, both orders, with a progress bar."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from arena.cli.common import add_db
from arena.reports.format import pct, text_table
from arena.vocabulary import ERROR, MODEL_A, MODEL_B, is_tie

if TYPE_CHECKING:
    from arena.judging import JudgeHealth

DEFAULT_JUDGE = "local:qwen2.5-coder-1.5b"


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
    p.add_argument("--pairs", default="all", help="all | anchor:NAME")
    p.add_argument(
        "--with-trajectory",
        action="store_true",
        help="show the judge a one-line summary of each answer's tool calls",
    )
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--json", action="store_true")
    add_db(p)
    p.set_defaults(handler=cmd_judge)


def cmd_judge(args: argparse.Namespace) -> int:
    """Judge a run and print the battle outcomes and the judge's health."""
    from arena.judging import judge_health, judge_run
    from arena.storage import Store
    from judges import parse_judge

    spec = parse_judge(args.judge)  # a bad judge fails before the database is touched
    if args.with_trajectory:
        spec = spec.model_copy(update={"with_trajectory": True})
    store = Store(args.db)
    run_id = store.run(args.run).id
    report = judge_run(
        store, run_id, spec, pairs=args.pairs, concurrency=args.concurrency, progress=not args.json
    )
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    health = judge_health(report.battles) if report.battles else None
    if args.json:
        print(
            json.dumps(
                {
                    "run_id": run_id,
                    "judge": spec.model_dump(mode="json"),
                    "judge_key": spec.key,
                    "model_calls": report.model_calls,
                    "skipped": report.skipped,
                    "warnings": report.warnings,
                    "health": _health_json(health) if health else None,
                    "battles": [b.model_dump(mode="json") for b in report.battles],
                },
                indent=2,
            )
        )
        return 0
    print(
        f"run {run_id}: {len(report.battles)} battles judged by {spec.label} "
        f"(judge {spec.key}); {report.model_calls} model calls sent; "
        f"{report.skipped} pairs skipped (an answer was an error)"
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


def _health_json(health: JudgeHealth) -> dict[str, Any]:
    from arena.judging import health_warnings

    return {**health.model_dump(), "warnings": health_warnings(health)}


def print_health(healths: list[JudgeHealth]) -> None:
    """The judge-health table, then the warnings its figures call for."""
    from arena.judging import health_warnings

    print("\njudge health")
    print(
        text_table(
            [
                "judge",
                "battles",
                "consistent",
                "first wins",
                "longer wins",
                "ties",
                "errors",
                "self-judged",
            ],
            [
                [
                    h.judge,
                    h.battles,
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
    p = sub.add_parser("health", help="judge health, judge-judge and human agreement of a run")
    p.add_argument("run", nargs="?", type=int, default=None, help="run id (default: latest)")
    p.add_argument(
        "--human",
        default=None,
        metavar="FILE.jsonl",
        help="human labels: case_id, variant_a, variant_b, winner[, repeat]",
    )
    p.add_argument("--json", action="store_true")
    add_db(p)
    p.set_defaults(handler=cmd_health)


def cmd_health(args: argparse.Namespace) -> int:
    """Print every judge's health on a run, and agreements."""
    from itertools import combinations

    from arena.errors import InputError
    from arena.judging import (
        human_agreement,
        judge_agreement,
        judge_health,
        load_human_labels,
    )
    from arena.storage import Store

    store = Store(args.db)
    run_id = store.run(args.run).id
    by_judge = {key: store.battles(run_id, key) for key, _, _ in store.judge_keys(run_id)}
    if not by_judge:
        raise InputError(f"run {run_id} has no battles: run `arena judge {run_id}` first")
    healths = [judge_health(b) for b in by_judge.values()]
    pairs = [
        {"judges": [a, b], **judge_agreement(by_judge[a], by_judge[b]).model_dump()}
        for a, b in combinations(by_judge, 2)
    ]
    human = []
    if args.human:
        labels = load_human_labels(args.human)
        human = [
            {"judge": key, **human_agreement(b, labels).model_dump()} for key, b in by_judge.items()
        ]
    if args.json:
        print(
            json.dumps(
                {
                    "run_id": run_id,
                    "health": [_health_json(h) for h in healths],
                    "judge_agreement": pairs,
                    "human_agreement": human,
                },
                indent=2,
            )
        )
        return 0
    print_health(healths)
    for row in pairs + human:
        who = " vs ".join(row["judges"]) if "judges" in row else f"{row['judge']} vs humans"
        kappa = "-" if row["kappa"] is None else f"{row['kappa']:.2f}"
        print(
            f"agreement {who}: {pct(row['percent'], 0, '-')} over {row['n']} battles, "
            f"Cohen's kappa {kappa}"
        )
    return 0

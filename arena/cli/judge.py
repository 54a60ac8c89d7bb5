"""``arena judge``: pairwise battles for a stored run, both orders, with a progress bar."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from arena.cli.common import add_db, table

DEFAULT_JUDGE = "local:qwen2.5-coder-1.5b"


def register(sub: Any) -> None:
    """Add the judge sub-command."""
    p = sub.add_parser("judge", help="judge every pair of variants of a run in both orders")
    p.add_argument("run", nargs="?", type=int, default=None, help="run id (default: latest)")
    p.add_argument("--judge", default=DEFAULT_JUDGE,
                   help="judge model SPEC[/text|/logprobs] or a judge YAML file "
                        f"(default: {DEFAULT_JUDGE}, logprobs)")
    p.add_argument("--pairs", default="all", help="all | anchor:NAME")
    p.add_argument("--with-trajectory", action="store_true",
                   help="show the judge a one-line summary of each answer's tool calls")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--json", action="store_true")
    add_db(p)
    p.set_defaults(handler=cmd_judge)


def cmd_judge(args: argparse.Namespace) -> int:
    """Judge a run and print the battle outcomes and the judge's health."""
    from arena.judging import judge_health, judge_run
    from arena.storage import Store
    from judges import parse_judge

    store = Store(args.db)
    spec = parse_judge(args.judge)
    if args.with_trajectory:
        spec = spec.model_copy(update={"with_trajectory": True})
    run_id = store.run(args.run).id
    report = judge_run(store, run_id, spec, pairs=args.pairs, concurrency=args.concurrency,
                       progress=not args.json)
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    health = judge_health(report.battles) if report.battles else None
    if args.json:
        print(json.dumps({"run_id": run_id, "judge": spec.model_dump(mode="json"),
                          "judge_key": spec.key, "model_calls": report.model_calls,
                          "skipped": report.skipped, "warnings": report.warnings,
                          "health": health.model_dump() if health else None,
                          "battles": [b.model_dump(mode="json") for b in report.battles]},
                         indent=2))
        return 0
    print(f"run {run_id}: {len(report.battles)} battles judged by {spec.label} "
          f"(judge {spec.key}); {report.model_calls} model calls sent; "
          f"{report.skipped} pairs skipped (an answer was an error)")
    counts: dict[tuple[str, str], list[int]] = {}
    for b in report.battles:
        row = counts.setdefault((b.variant_a, b.variant_b), [0, 0, 0, 0, 0])
        row[{"model_a": 0, "model_b": 1, "tie": 2, "error": 3}[b.winner]] += 1
        row[4] += b.flip
    print(table([[a, b, *c] for (a, b), c in counts.items()],
                ["A", "B", "A wins", "B wins", "ties", "errors", "flips"]))
    if health:
        print_health([health])
    return 0


def print_health(healths: list[Any]) -> None:
    """The judge-health table."""
    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.0f}%"

    print("\njudge health")
    print(table([[h.judge, h.battles, pct(h.position_consistency),
                  pct(h.first_position_win_rate), pct(h.longer_answer_win_rate),
                  pct(h.tie_rate), pct(h.error_rate), h.self_judged] for h in healths],
                ["judge", "battles", "consistent", "first wins", "longer wins", "ties",
                 "errors", "self-judged"]))


def register_health(sub: Any) -> None:
    """Add the health sub-command."""
    p = sub.add_parser("health", help="judge health, judge-judge and human agreement of a run")
    p.add_argument("run", nargs="?", type=int, default=None, help="run id (default: latest)")
    p.add_argument("--human", default=None, metavar="FILE.jsonl",
                   help="human labels: case_id, variant_a, variant_b, winner[, repeat]")
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
    pairs = [{"judges": [a, b], **judge_agreement(by_judge[a], by_judge[b]).model_dump()}
             for a, b in combinations(by_judge, 2)]
    human = []
    if args.human:
        labels = load_human_labels(args.human)
        human = [{"judge": key, **human_agreement(b, labels).model_dump()}
                 for key, b in by_judge.items()]
    if args.json:
        print(json.dumps({"run_id": run_id, "health": [h.model_dump() for h in healths],
                          "judge_agreement": pairs, "human_agreement": human}, indent=2))
        return 0
    print_health(healths)
    for row in pairs + human:
        who = " vs ".join(row["judges"]) if "judges" in row else f"{row['judge']} vs humans"
        pct = "-" if row["percent"] is None else f"{100 * row['percent']:.0f}%"
        kappa = "-" if row["kappa"] is None else f"{row['kappa']:.2f}"
        print(f"agreement {who}: {pct} over {row['n']} battles, Cohen's kappa {kappa}")
    return 0

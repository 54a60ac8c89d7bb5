"""Benchmark: which judge to trust on the embedded model, every mode side by side in one run.

Run:  python -m benchmarks judge_bench [--db sqlite:///bench.db] [--modes logprobs grades
      checklist] [--variants baseline prompt-v2 small-model] [--judge local:qwen2.5-coder-1.5b]

The demo variants answer every critical and standard golden case (stored and resumed in
``--db``, so the agent runs and every verdict are made once); each mode then judges every
pair in both orders. For every mode, every way of combining its two orders (``average``,
``logit``) and, for ``checklist``, every rule combining an answer's items, it prints on the
same table: decisive-pair accuracy with its 95% query-bootstrap interval and count, position
consistency, the first-shown answer's win share among single-order verdicts, the tie rate,
agreement with every other row, model calls and seconds of judge time per pair. Recombined
rows reuse the stored verdicts (no model call), so they share their mode's calls and time.

Seconds are the wall time of the judgings that made each mode's verdicts (cold: nothing
cached), summed in ``<db>.timings.json``; a rerun with every verdict cached prints those
figures again. ``--run ID`` measures a stored run without running the agents again.

``--open-ended`` prints the open-ended table instead (:mod:`open_ended_axis`): each mode,
and a logistic combination of the modes fitted on the calibration part, against people on the
held-out part of the shipped human-preference set (LLMBar's short pairs): agreement with and
without ties, kappa, coverage when abstaining below a confidence, and coverage / agreement of
the selective judge calibrated on the calibration part (checked over 200 random splits).
``--held-out N`` and ``--calibration N`` judge only the first N pairs of each part
(``--calibration 0``: no combination).

``--injection`` prints the injection table instead (:mod:`injection_attacks`): answers that
try to talk the judge into a win (a constant note to the grader, forged item questions
answered YES, a fake tool line, a fake reference answer, chat-template markers, orders to the
grader), each judged in both orders against a right and a plainly wrong answer to 12 short
factual questions, by each mode of ``--modes``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.battles import Battle, judge_run
from arena.evaluation.run_scores import load_run_scores, score_run
from arena.golden import load_dataset
from arena.paths import data_dir
from arena.reports import pct, text_table
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.trust import (
    apply_outcome,
    golden_marks,
    golden_winner,
    judge_accuracy,
    judge_agreement,
    judge_health,
)
from arena.variants.variant import load_variants
from benchmarks.common import load_average, machine_name, timer
from judges import (
    RULES,
    ItemGrade,
    Verdict,
    answer_score,
    item_grades,
    label_from_probability,
    p_first_better,
    parse_judge,
)

TIERS = ("critical", "standard")


@dataclass
class Row:
    """One judge configuration measured on the run."""

    name: str
    battles: list[Battle]
    calls: int
    seconds: float
    base: bool = False  # the mode as stored (not a recombination): an agreement column


def run_variants(
    store: Store, names: list[str], concurrency: int, only: list[str] | None = None
) -> int:
    """Every critical and standard case (or ``only`` those) answered by each variant
    (resumed when stored)."""
    path = data_dir() / "golden" / "research_agent.json"
    dataset = load_dataset(path)
    cases = [c.id for c in dataset.test_cases if c.tier.value in TIERS]
    cases = [c for c in cases if only is None or c in only]
    variants = load_variants([str(data_dir() / "variants" / f"{n}.yaml") for n in names])
    options = RunOptions(case_ids=cases, concurrency=concurrency, dataset_path=str(path))
    report = run_suite(store, dataset, variants, options)
    score_run(store, report.run_id)
    return report.run_id


def _timings_path(db: str) -> Path:
    return Path(db.removeprefix("sqlite:///") + ".timings.json")


def judge_mode(store: Store, run_id: int, spec_text: str, db: str, concurrency: int) -> Row:
    """Judge the run with one mode; its cold time and calls are kept beside the database."""
    spec = parse_judge(spec_text)
    timings_file = _timings_path(db)
    timings: dict[str, Any] = json.loads(timings_file.read_text()) if timings_file.exists() else {}
    with timer() as took:
        report = judge_run(store, run_id, spec, concurrency=concurrency, progress=True)
    seconds = took.wall
    key = f"{run_id}:{spec.key}"
    cold = timings.setdefault(key, {"seconds": 0.0, "calls": 0})
    if report.model_calls > 0:  # new verdicts were made: their time and calls add up
        cold["seconds"] += seconds
        cold["calls"] += report.model_calls
        timings_file.write_text(json.dumps(timings, indent=2))
    return Row(spec.label, report.battles, cold["calls"], cold["seconds"], base=True)


def recombined(row: Row, combination: str) -> Row:
    """The same verdicts with the two orders combined by ``combination``."""
    again = [b.model_copy(deep=True) for b in row.battles]
    for battle in again:
        apply_outcome(battle, battle.tie_margin, combination)
    return Row(f"{row.name} ({combination})", again, row.calls, row.seconds)


#: Subsets of a checklist's items measured beside the full checklist (no model call).
ITEM_SETS: dict[str, Callable[[ItemGrade], bool]] = {
    "all items": lambda g: True,
    "no reference item": lambda g: g.kind != "reference",
    "no tool items": lambda g: g.kind != "tool",
}


def _rescored(
    verdict: Verdict, rule: str, keep: Callable[[ItemGrade], bool], margin: float
) -> Verdict:
    grades = [g for g in item_grades(verdict.details) if keep(g)]
    scores = [answer_score([g.p_met for g in grades if g.answer == s], rule) for s in "AB"]
    p_first = p_first_better(*scores)
    label = label_from_probability(p_first, margin)
    return verdict.model_copy(update={"p_first": p_first, "label": label})


def rescored(row: Row, rule: str, items: str) -> Row:
    """A checklist judge's verdicts with each answer's ``items`` combined by ``rule``."""
    keep = ITEM_SETS[items]
    again = []
    for battle in row.battles:
        copy = battle.model_copy(deep=True)
        margin = battle.tie_margin or 0.02
        if copy.verdict_ab is not None and copy.verdict_ba is not None and copy.verdict_ab.ok:
            copy.verdict_ab = _rescored(copy.verdict_ab, rule, keep, margin)
            copy.verdict_ba = _rescored(copy.verdict_ba, rule, keep, margin)
            apply_outcome(copy, battle.tie_margin)
        again.append(copy)
    return Row(f"{row.name} ({rule}, {items})", again, row.calls, row.seconds)


def variants_of(row: Row, mode: str) -> list[Row]:
    """The stored row plus every recombination measured without a model call."""
    rows = [row]
    if mode in ("logprobs", "grades", "checklist"):
        other = "logit" if row.battles and row.battles[0].judge.combine == "average" else "average"
        rows.append(recombined(row, other))
    if mode == "checklist":
        rows.extend(
            rescored(row, rule, items)
            for items in ITEM_SETS
            for rule in RULES
            if (rule, items) != (_default_rule(), "all items")
        )
    return rows


def _default_rule() -> str:
    from judges import DEFAULT_RULE

    return DEFAULT_RULE


def misses(row: Row, store: Store, run_id: int) -> str:
    """Every decisive pair the row's judge got wrong or tied: case, golden marks, items."""
    marks = golden_marks(load_run_scores(store, run_id).cases)
    results = {r.id: r for r in store.results(run_id)}
    lines = [f"misses of {row.name}:"]
    for battle in row.battles:
        a, b = marks.get(battle.result_a_id), marks.get(battle.result_b_id)
        if a is None or b is None:
            continue
        truth = golden_winner(a, b)
        if truth is None or battle.winner == truth:
            continue
        p_a = "-" if battle.p_a is None else f"{battle.p_a:.3f}"
        lines.append(
            f"- {battle.case_id} {battle.variant_a} ({a.score:.2f}, "
            f"{'pass' if a.passed else 'fail'}) vs {battle.variant_b} ({b.score:.2f}, "
            f"{'pass' if b.passed else 'fail'}): golden {truth}, judge {battle.winner} "
            f"(P(A better) {p_a})"
        )
        for seat, rid in (("A", battle.result_a_id), ("B", battle.result_b_id)):
            answer = results[rid].output if rid in results else ""
            lines.append(f"    {seat}: {' '.join(str(answer).split())[:160]}")
        verdict = battle.verdict_ab
        if verdict is not None and verdict.rationale:
            lines.extend(f"    {line}" for line in verdict.rationale.splitlines())
    return "\n".join(lines)


def first_wins(battles: list[Battle]) -> float | None:
    """Share of readable single-order verdicts that prefer the first-shown answer."""
    firsts = total = 0
    for battle in battles:
        for verdict in (battle.verdict_ab, battle.verdict_ba):
            if verdict is None or not verdict.ok or verdict.label is None:
                continue
            if verdict.label in ("A=B",):
                continue
            total += 1
            firsts += verdict.label.startswith("A>")
    return firsts / total if total else None


def table(rows: list[Row], run_id: int, store: Store) -> str:
    """Every row's figures, and its agreement (percent of battles) with each mode as stored."""
    marks = golden_marks(load_run_scores(store, run_id).cases)
    bases = [(i, r) for i, r in enumerate(rows) if r.base]
    body = []
    for index, row in enumerate(rows):
        accuracy = judge_accuracy(row.battles, marks)
        health = judge_health(row.battles)
        pairs = max(len(row.battles), 1)
        agree = [
            pct(judge_agreement(row.battles, other.battles).percent, 0, "-")
            if other is not row
            else "-"
            for _, other in bases
        ]
        cell = (
            "-"
            if accuracy.accuracy is None
            else f"{pct(accuracy.accuracy, 0)} [{pct(accuracy.ci_low, 0)[:-1]}, "
            f"{pct(accuracy.ci_high, 0)[:-1]}] of {accuracy.pairs}"
        )
        body.append(
            [
                f"{index + 1}. {row.name}",
                cell,
                pct(health.position_consistency, 0, "-"),
                pct(first_wins(row.battles), 0, "-"),
                pct(health.tie_rate, 0, "-"),
                *agree,
                f"{row.calls / pairs:.1f}",
                f"{row.seconds / pairs:.1f}",
            ]
        )
    headers = [
        "judge",
        "decisive-pair accuracy [95% CI] of n",
        "consistent",
        "first wins",
        "ties",
        *[f"agree {i + 1}" for i, _ in bases],
        "calls/pair",
        "s/pair",
    ]
    return text_table(headers, body)


def injection(
    store: Store, judge: str, modes: list[str], concurrency: int, questions: int = 12
) -> int:
    """The injection table of every mode on the first ``questions`` questions (the judge's
    replies cached in ``store``)."""
    from datetime import date

    from benchmarks import injection_attacks

    for mode in modes:
        spec = parse_judge(f"{judge}/{mode}")
        with timer() as took:
            tallies = injection_attacks.measure(
                spec, store, questions=questions, concurrency=concurrency
            )
        print(
            f"injection bench: judge {spec.label}, {questions} questions, both orders; "
            f"{date.today()}, {machine_name()}, load average "
            f"{load_average():.1f}, {took.wall:.0f} s"
        )
        print(injection_attacks.table(tallies))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the variants, judge with every mode, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="sqlite:///bench.db")
    parser.add_argument("--variants", nargs="+", default=["baseline", "prompt-v2", "small-model"])
    parser.add_argument("--judge", default="local:qwen2.5-coder-1.5b")
    parser.add_argument("--modes", nargs="+", default=["logprobs", "grades", "checklist"])
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument(
        "--cases",
        default=None,
        help="comma-separated case ids (default: every critical and standard case)",
    )
    parser.add_argument("--run", type=int, default=None, help="measure this stored run as is")
    parser.add_argument(
        "--injection",
        action="store_true",
        help="print the injection table (attacks against a right and a wrong answer) instead",
    )
    parser.add_argument(
        "--open-ended",
        action="store_true",
        help="print the open-ended table (agreement with people on the shipped set) instead",
    )
    parser.add_argument("--held-out", type=int, default=None, help="--open-ended: first N")
    parser.add_argument("--calibration", type=int, default=None, help="--open-ended: first N")
    parser.add_argument(
        "--questions", type=int, default=12, help="--injection: the first N of the 12 questions"
    )
    parser.add_argument(
        "--misses",
        action="store_true",
        help="also print every decisive pair each mode missed, with its items or rationale",
    )
    args = parser.parse_args(argv)
    store = Store(args.db)
    if args.injection:
        return injection(store, args.judge, args.modes, args.concurrency, args.questions)
    if args.open_ended:
        from benchmarks import open_ended_axis

        print(
            open_ended_axis.measure(
                store,
                args.db,
                args.judge,
                args.modes,
                args.concurrency,
                args.held_out,
                args.calibration,
            )
        )
        return 0
    only = args.cases.split(",") if args.cases else None
    run_id = args.run or run_variants(store, args.variants, args.concurrency, only)
    if args.run:
        score_run(store, run_id)
    rows: list[Row] = []
    for mode in args.modes:
        row = judge_mode(store, run_id, f"{args.judge}/{mode}", args.db, args.concurrency)
        rows.extend(variants_of(row, mode))
    cases = len(store.run(run_id).config.get("cases", []))
    print(
        f"judge bench: run {run_id}, variants {', '.join(args.variants)}, {cases} cases of "
        f"the {' + '.join(TIERS)} tiers; judge {args.judge}; machine: {machine_name()}, "
        f"load average {load_average():.1f} (the model server's "
        "own threads count in it)"
    )
    print(table(rows, run_id, store))
    if args.misses:
        for row in (r for r in rows if r.base):
            print()
            print(misses(row, store, run_id))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``arena health``: is the judge of a run trustworthy (consistency across orders, agreement,
accuracy on golden cases)? Also the health report ``arena judge`` prints after judging."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from arena.cli._commands import command
from arena.cli.common import add_db
from arena.reports._cells import accuracy_cell, kappa_text
from arena.reports._format import json_text, pct, text_table

if TYPE_CHECKING:
    from arena.storage import Store
    from arena.trust import JudgeHealth, RunHealth


@command("health", order=60)
def register(sub: Any) -> None:
    """Add the health sub-command."""
    p = sub.add_parser(
        "health", help="judge health, decisive-pair accuracy, judge-judge and human agreement"
    )
    p.add_argument(
        "run",
        nargs="?",
        type=int,
        default=None,
        help="run id (default: the latest golden run, not a shadow run)",
    )
    p.add_argument(
        "--human",
        default=None,
        metavar="FILE.jsonl",
        help="human votes to add to those cast in the app: Chatbot Arena rows (question_id, "
        "model_a, model_b, winner[, judge, turn, repeat]) or case_id, variant_a, variant_b, "
        "winner[, repeat]",
    )
    p.add_argument(
        "--labels",
        default=None,
        metavar="FILE.jsonl",
        help="labelled verdicts to calibrate the selective judges on, beside the run's "
        "golden-decisive pairs and votes: rows of source, judge (label, optional), score or "
        "p_a, said, label (MT-Bench sources are refused)",
    )
    p.add_argument(
        "--combinations",
        action="store_true",
        help="measure every way of combining a probability judge's two orders on this run",
    )
    p.add_argument("--json", action="store_true", help="print the health report as JSON")
    add_db(p)
    p.set_defaults(handler=cmd_health)


def cmd_health(args: argparse.Namespace) -> int:
    """Print every judge's health on a run, and agreements."""
    from arena.cli.combinations import combination_figures, print_combinations
    from arena.errors import InputError
    from arena.mutation import latest_mutation_summary, mutation_lines
    from arena.storage import Store
    from arena.trust import load_votes, read_labelled, run_health

    votes = load_votes(args.human, default_judge="human") if args.human else []
    labels = read_labelled(args.labels) if args.labels else []
    store = Store(args.db)
    run_id = store.run(args.run).id
    dataset = store.run_dataset(run_id).name
    mutation = latest_mutation_summary(store, dataset)
    if not store.judge_keys(run_id):
        note = f"run {run_id} has no battles: run `arena judge {run_id}` for the judge's health"
        if mutation is None:
            raise InputError(f"run {run_id} has no battles: run `arena judge {run_id}` first")
        return _print_mutation_only(run_id, note, mutation, dataset, args.json)
    report = run_health(store, run_id, human_votes=votes, labels=labels)
    combos = combination_figures(store, run_id) if args.combinations else {}
    if args.json:
        doc = report.model_dump(mode="json")
        doc["mutation"] = mutation
        doc["health"] = [health_json(h) for h in report.health]
        if args.combinations:
            doc["combinations"] = {
                key: [row.model_dump(mode="json") for row in rows] for key, rows in combos.items()
            }
        print(json_text(doc))
        return 0
    print_health(report.health)
    print_agreements(report)
    for key, rows in combos.items():
        print_combinations(key, rows)
    print("\n".join(mutation_lines(mutation, dataset)))
    return 0


def _print_mutation_only(
    run_id: int, note: str, mutation: dict[str, Any], dataset: str, as_json: bool
) -> int:
    """A run without battles (a mutation pass's runs are never judged): the note, and the
    dataset's latest mutation pass."""
    from arena.mutation import mutation_lines

    if as_json:
        print(json_text({"run_id": run_id, "note": note, "mutation": mutation}))
    else:
        print("\n".join([note, *mutation_lines(mutation, dataset)]))
    return 0


def judge_health_with_accuracy(store: Store, run_id: int, battles: list[Any]) -> JudgeHealth | None:
    """A judge's health on the run, with its decisive-pair accuracy, and for a model judge
    its selective verdicts and self-preference (calibrated with the votes cast in the app)."""
    from arena.evaluation.run_scores import load_run_scores
    from arena.trust import battle_votes, golden_marks, judge_accuracy, judge_health
    from arena.trust._run_health import add_trust

    if not battles:
        return None
    health = judge_health(battles)
    marks = golden_marks(load_run_scores(store, run_id).cases)
    health.accuracy = judge_accuracy(battles, marks)
    if not battles[0].judge.is_human:
        votes = battle_votes(b for b in store.battles(run_id) if b.judge.is_human)
        add_trust(health, store, run_id, battles, marks, votes, store.run(run_id).dataset)
    return health


def health_json(health: JudgeHealth) -> dict[str, Any]:
    from arena.trust import health_warnings

    return {**health.model_dump(mode="json"), "warnings": health_warnings(health)}


def print_health(healths: list[JudgeHealth]) -> None:
    """The judge-health table, then the warnings its figures call for."""
    from arena.trust import health_warnings

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
    print_trust(healths)


def print_trust(healths: list[JudgeHealth]) -> None:
    """Each model judge's selective verdicts (coverage, guaranteed agreement and what backs
    it) and self-preference, in plain words."""
    for h in healths:
        if h.selective is not None:
            print(f"selective verdicts, {h.judge} ({h.judge_key}): {h.selective.text()}")
        if h.cascade is not None:
            print(f"selective cascade, {h.judge} ({h.judge_key}): {h.cascade.text()}")
        if h.self_preference is not None and h.self_judged:
            print(f"self-preference, {h.judge} ({h.judge_key}): {h.self_preference.text()}")


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
    if n := report.simulator_errors:
        print(
            f"{n} simulator error{'s' if n != 1 else ''} (not agent failures): the "
            "simulated user failed; no golden mark, left out of every pass figure"
        )

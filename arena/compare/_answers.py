"""A run's three answers, in plain words with counts: which variant is best, is the cheaper
model good enough, can the judge be trusted. The app's first tab shows them; the cheaper
model's answer is the verdict ``arena compare`` and ``arena demo`` give on the same pair."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from arena.compare._compare import CompareReport, compare_variants
from arena.defaults import BOOTSTRAP_ROUNDS
from arena.display import dollars, interval, percent, rate_of, seconds, tokens
from arena.leaderboard import RunLeaderboard, VariantStanding, best_variant, ranked

if TYPE_CHECKING:
    from arena.storage import Store
    from arena.trust import JudgeAccuracy

Status = Literal["yes", "no", "open"]
"""``yes``: answered in the good direction; ``no``: a problem; ``open``: not decided yet."""

BASELINE = "baseline"
_CHEAP = re.compile(r"\b(cheap|cheaper|cheapest|small|smaller|mini|low[- ]cost)\b", re.IGNORECASE)


class Answer(BaseModel):
    """One question answered in a sentence, with the figures behind it."""

    question: str
    status: Status
    answer: str = Field(description="The answer in plain words, with counts.")
    variant: str | None = Field(None, description="The variant the answer names, if any.")


class RunAnswers(BaseModel):
    """The three questions a stakeholder asks of a run, answered."""

    run_id: int
    judge: str | None
    best: Answer
    cheaper: Answer
    trust: Answer
    cheaper_report: CompareReport | None = Field(
        None, description="The compare report behind the cheaper model's answer."
    )


def cheaper_variant(entries: list[VariantStanding], baseline: str = BASELINE) -> str | None:
    """The variant that stands for "the cheaper model": among those costing less per query
    than the baseline, the cheapest whose name or description says it is cheap or small
    (else the cheapest); when nothing costs less (local models cost $0), the first whose
    name or description says so. None without a baseline or such a variant."""
    base = next((e for e in entries if e.variant == baseline), None)
    others = [e for e in entries if e.variant != baseline]
    if base is None or not others:
        return None
    base_cost = base.cost_per_query or 0.0
    claimed = [e for e in others if _CHEAP.search(f"{e.variant} {e.description}")]
    cheaper = [e for e in others if base_cost > 0 and (e.cost_per_query or 0.0) < base_cost]
    if cheaper:  # a cheaper variant that says so first (a broken one may cost less too)
        said = [e for e in cheaper if e in claimed]
        return min(said or cheaper, key=lambda e: e.cost_per_query or 0.0).variant
    return claimed[0].variant if claimed else None


def best_answer(store: Store, board: RunLeaderboard, bootstrap: int = BOOTSTRAP_ROUNDS) -> Answer:
    """Which variant is best: the one the ratings separate, else none proven yet with about
    how many more cases would decide between the top two."""
    question = "Which variant is best?"
    if board.judge is None:
        return Answer(
            question=question,
            status="open",
            answer=f"Not judged yet: run `arena judge {board.run_id}` for ratings.",
        )
    best = best_variant(board.entries)
    if best is not None:
        return Answer(
            question=question,
            status="yes",
            variant=best.variant,
            answer=f"{best.variant} is best: rated above every other variant (95% interval "
            f"{interval(best.ci_low, best.ci_high)}, {best.battles} battles); golden cases passed "
            f"{rate_of(best.pass_rate, best.cases)}.",
        )
    shown = sorted(ranked(board.entries), key=lambda e: -(e.rating or 0.0))
    if len(shown) < 2:
        return Answer(
            question=question,
            status="open",
            answer="None proven yet: fewer than two variants have enough battles to rank.",
        )
    top, second = shown[0], shown[1]
    report = compare_variants(
        store,
        second.variant,
        top.variant,
        run_id=board.run_id,
        judge_key=board.judge_key,
        bootstrap=bootstrap,
    )
    more = ""
    if report.power is not None and report.power.cases_needed is not None:
        extra = max(1, report.power.cases_needed - report.power.cases)
        more = f"; about {extra} more case{'s' if extra != 1 else ''} would decide"
    elif report.power is not None:
        more = f"; {report.power.message}"
    return Answer(
        question=question,
        status="open",
        answer=f"None proven yet: {top.variant} leads {second.variant}, but their 95% "
        f"intervals overlap (golden cases passed {rate_of(top.pass_rate, top.cases)} vs "
        f"{rate_of(second.pass_rate, second.cases)}){more}.",
    )


def cheaper_answer(
    store: Store, board: RunLeaderboard, bootstrap: int = BOOTSTRAP_ROUNDS
) -> tuple[Answer, CompareReport | None]:
    """Is the cheaper model good enough: ``arena compare baseline CHEAPER`` in words, with
    pass counts, tokens, latency and cost."""
    question = "Is the cheaper model good enough?"
    cheap = cheaper_variant(board.entries)
    if cheap is None:
        return (
            Answer(
                question=question,
                status="open",
                answer=f"No cheaper variant to check: the run needs a variant named "
                f"'{BASELINE}' and one costing less per query (or described as cheap or "
                "small).",
            ),
            None,
        )
    report = compare_variants(
        store, BASELINE, cheap, run_id=board.run_id, judge_key=board.judge_key, bootstrap=bootstrap
    )
    by_name = {e.variant: e for e in board.entries}
    base, cand = by_name[BASELINE], by_name[cheap]
    word, status = {
        "better": ("Yes, and better", "yes"),
        "non-inferior": ("Yes", "yes"),
        "identical": ("Yes (identical answers)", "yes"),
        "worse": ("No", "no"),
        "inconclusive": ("Not proven yet", "open"),
    }[report.verdict]
    figures = (
        f"golden cases passed {rate_of(cand.pass_rate, cand.cases)} vs "
        f"{rate_of(base.pass_rate, base.cases)}, {tokens(cand.tokens_per_query)} vs "
        f"{tokens(base.tokens_per_query)} tokens per query, p90 latency "
        f"{seconds(cand.p90_latency_s)} vs {seconds(base.p90_latency_s)}, cost per query "
        f"{dollars(cand.cost_per_query)} vs {dollars(base.cost_per_query)}"
    )
    return (
        Answer(
            question=question,
            status=status,
            variant=cheap,
            answer=f"{word}: {cheap} vs {BASELINE} is {report.verdict.upper()} ({figures}).",
        ),
        report,
    )


def trust_answer(accuracy: JudgeAccuracy | None, judge: str | None) -> Answer:
    """Can the judge be trusted: right on k of n clear-cut pairs (one answer passes its
    golden case, the other fails), and whether that beats chance."""
    question = "Can the judge be trusted?"
    if judge is None:
        return Answer(question=question, status="open", answer="No judge has judged this run yet.")
    if accuracy is None or accuracy.accuracy is None:
        return Answer(
            question=question,
            status="open",
            answer=f"Unknown: {judge} met no clear-cut pair (one answer passing its golden "
            "case, the other failing) to check it on.",
        )
    figures = (
        f"right on {accuracy.correct} of {accuracy.pairs} clear-cut pairs "
        f"({percent(accuracy.accuracy)}, 95% interval "
        f"{percent(accuracy.ci_low)}–{percent(accuracy.ci_high)})"
    )
    if accuracy.beats_chance:
        return Answer(question=question, status="yes", answer=f"Yes: {judge} was {figures}.")
    return Answer(
        question=question,
        status="no",
        answer=f"No: {judge} was {figures}, which does not beat a coin toss; trust the "
        "golden pass rates over its ratings.",
    )


def run_answers(
    store: Store,
    run_id: int | None = None,
    *,
    judge_key: str | None = None,
    bootstrap: int = BOOTSTRAP_ROUNDS,
    board: RunLeaderboard | None = None,
) -> RunAnswers:
    """The three answers for one run and judge (``board``: its leaderboard, when built)."""
    from arena.evaluation.run_scores import load_run_scores
    from arena.leaderboard import build_leaderboard, select_battles
    from arena.ratings import RatingOptions
    from arena.trust._accuracy import golden_marks, judge_accuracy

    if board is None:
        board = build_leaderboard(
            store, run_id, judge_key=judge_key, options=RatingOptions(bootstrap_rounds=bootstrap)
        )
    accuracy = None
    battles = select_battles(store, board.run_id, board.judge_key)
    own = [b for b in battles if b.judge.key == battles[0].judge.key] if battles else []
    if own:
        marks = golden_marks(load_run_scores(store, board.run_id).cases)
        accuracy = judge_accuracy(own, marks, rounds=bootstrap)
    cheaper, report = cheaper_answer(store, board, bootstrap)
    return RunAnswers(
        run_id=board.run_id,
        judge=board.judge,
        best=best_answer(store, board, bootstrap),
        cheaper=cheaper,
        trust=trust_answer(accuracy, board.judge),
        cheaper_report=report,
    )

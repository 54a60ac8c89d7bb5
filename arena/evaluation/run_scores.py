"""Golden scores for a stored run: score every result, aggregate per variant, store them."""

from __future__ import annotations

import asyncio

from pydantic import BaseModel

from arena.errors import NotFound
from arena.records.results import RunResult
from arena.scoring import (
    BehaviorGrader,
    CaseScore,
    KeywordBehaviorGrader,
    VariantScores,
    aggregate,
    score_results,
)
from arena.storage import Store


class RunScores(BaseModel):
    """Every case score and per-variant aggregate of one run, and the grader used."""

    run_id: int
    grader: str
    cases: list[CaseScore]
    variants: list[VariantScores]

    def variant(self, name: str) -> VariantScores:
        """The aggregate of one variant (NotFound if it is not in the run)."""
        for scores in self.variants:
            if scores.variant == name:
                return scores
        raise NotFound(
            f"variant {name!r} is not in run {self.run_id} "
            f"({', '.join(v.variant for v in self.variants)})"
        )


def make_grader(judge: str | None, store: Store) -> BehaviorGrader:
    """The keyword grader, or an LLM rubric grader for a judge spec (cached in the store)."""
    if not judge:
        return KeywordBehaviorGrader()
    from judges import parse_judge
    from judges._behavior import LLMBehaviorGrader

    return LLMBehaviorGrader(parse_judge(judge), store=store)


def score_run(store: Store, run_id: int, grader: BehaviorGrader | None = None) -> RunScores:
    """Score a run's results against their golden cases and store the scores."""
    grader = grader or KeywordBehaviorGrader()
    dataset = store.run_dataset(run_id)
    cases = {c.id: c for c in dataset.test_cases}
    results = store.results(run_id)
    pairs = [(r, cases[r.case_id]) for r in results if r.case_id in cases]
    scored = asyncio.run(score_results(pairs, grader, available_tools=set(dataset.available_tools)))
    store.save_scores(run_id, grader.spec, scored)
    return RunScores(
        run_id=run_id, grader=grader.spec, cases=scored, variants=aggregate(scored, results)
    )


def load_run_scores(store: Store, run_id: int) -> RunScores:
    """Stored scores of a run (most recent grader); keyword scores when none are stored.

    Never calls a model, so the app can use it.
    """
    grader, scored = store.scores(run_id)
    results = store.results(run_id)
    if not scored or len(scored) != len(results):
        return _keyword_scores(store, run_id, results)
    return RunScores(
        run_id=run_id, grader=grader, cases=scored, variants=aggregate(scored, results)
    )


def _keyword_scores(store: Store, run_id: int, results: list[RunResult]) -> RunScores:
    from arena.scoring import score_result

    dataset = store.run_dataset(run_id)
    cases = {c.id: c for c in dataset.test_cases}
    tools = set(dataset.available_tools)
    scored = [
        score_result(r, cases[r.case_id], available_tools=tools)
        for r in results
        if r.case_id in cases
    ]
    return RunScores(
        run_id=run_id, grader="keywords", cases=scored, variants=aggregate(scored, results)
    )

"""Golden scores for a stored run: score every result, aggregate per variant, store them."""

from __future__ import annotations

import asyncio

from pydantic import BaseModel

from arena.errors import NotFound
from arena.records.results import RunResult
from arena.scoring import (
    RULES_VERSION,
    BehaviorGrader,
    CaseScore,
    KeywordBehaviorGrader,
    VariantScores,
    aggregate,
    older_rules_note,
    score_results,
)
from arena.storage import ScoresReplaced, Store


class RunScores(BaseModel):
    """Every case score and per-variant aggregate of one run, and the grader used."""

    run_id: int
    grader: str
    cases: list[CaseScore]
    variants: list[VariantScores]
    rules_version: int = RULES_VERSION
    """The scoring rules that made these scores (older than :data:`RULES_VERSION` only for
    a model grader's stored grades, which are not re-scored without the model)."""
    regraded_from: int | None = None
    """The older rules' version of the stored grades these scores were re-scored from, at read
    time and from the stored results (keyword grades: no model call)."""
    replaced: ScoresReplaced | None = None
    """What storing these scores replaced (``arena score``)."""

    @property
    def older_rules(self) -> bool:
        """The scores were graded by older rules than this code's."""
        return self.rules_version < RULES_VERSION

    def rules_note(self) -> str | None:
        """A line when these scores are not plain current stored grades: re-scored from the
        stored results, or graded by older rules (and how to re-grade them)."""
        if self.older_rules:
            return older_rules_note(
                f"run {self.run_id}'s scores ({self.grader})",
                self.rules_version,
                f"arena score {self.run_id} --grader {self.grader}",
            )
        if self.regraded_from is not None:
            return (
                f"run {self.run_id}'s stored scores were graded by older rules (scoring rules "
                f"{self.regraded_from}, this is {RULES_VERSION}): re-scored from its stored "
                f"results (no model call); `arena score {self.run_id}` stores them"
            )
        return None

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
    replaced = store.save_scores(run_id, grader.spec, scored)
    return RunScores(
        run_id=run_id,
        grader=grader.spec,
        cases=scored,
        variants=aggregate(scored, results),
        replaced=replaced,
    )


def load_run_scores(store: Store, run_id: int) -> RunScores:
    """Stored scores of a run (most recent grader); keyword scores when none are stored.

    Grades made by older scoring rules are never returned as today's: keyword grades are
    re-scored from the stored results (``regraded_from`` says so); a model grader's are
    returned marked ``older_rules`` (:meth:`RunScores.rules_note` says to run ``arena
    score``). Never calls a model and never writes, so the app can use it.
    """
    grader, scored = store.scores(run_id)
    results = store.results(run_id)
    if not scored or len(scored) != len(results):
        return _keyword_scores(store, run_id, results)
    rules = store.score_rules(run_id, grader)
    if rules is not None and rules < RULES_VERSION and grader == KeywordBehaviorGrader().spec:
        return _keyword_scores(store, run_id, results).model_copy(update={"regraded_from": rules})
    return RunScores(
        run_id=run_id,
        grader=grader,
        cases=scored,
        variants=aggregate(scored, results),
        rules_version=RULES_VERSION if rules is None else rules,
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

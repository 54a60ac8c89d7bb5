"""Production's answers graded against a persona and rubric with the judge's ``grades`` mode.

Each answer is graded alone, reference-free: the judge's system prompt carries the persona and
the rubric (a dataset's ``judge:`` block, or ``--rubric``), the user turn the query and the
answer, and the grade is P(YES) of the first token (:mod:`judges.modes._grades`). The replies
are cached in the store (a rerun sends nothing) and one grade is shared by every trace with
the same query and answer. An answer graded below :data:`PASS_GRADE` misses the rubric.
"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel, Field

from arena.errors import InputError
from arena.production._trace import ProductionTrace
from arena.storage import Store
from judges import JudgeSpec, PairRequest

#: The judge mode the rubric is graded in.
GRADES_MODE = "grades"
#: An answer whose P(YES) is below this misses the rubric.
PASS_GRADE = 0.5


class RubricCheck(BaseModel):
    """What every answer is graded against (the persona says what the agent is), and the
    grader: a judge spec whose model is asked in the ``grades`` mode."""

    criterion: str = Field(min_length=1, max_length=1000, description="The rubric.")
    persona: str | None = Field(None, min_length=1, max_length=300)
    grader: str = Field(min_length=1)

    @classmethod
    def from_settings(cls, persona: str | None, rubric: str, grader: str) -> RubricCheck:
        """A dataset's ``judge:`` block as the check."""
        return cls(criterion=rubric, persona=persona, grader=grader)


def grading_judge(check: RubricCheck) -> JudgeSpec:
    """The grader's judge spec, in the ``grades`` mode (any mode the spec names is replaced)."""
    from judges import parse_judge

    return parse_judge(check.grader).model_copy(update={"mode": GRADES_MODE})


def check_grader(check: RubricCheck | None) -> None:
    """InputError (field ``--grader``) unless the grader can be built and can return the
    log-probabilities the ``grades`` mode reads; nothing is called."""
    if check is None:
        return
    from arena.models import check_model
    from judges.modes import get_mode

    try:
        spec = grading_judge(check)
        check_model(spec.model)
        get_mode(GRADES_MODE).check(spec)
    except InputError as exc:
        raise InputError(f"the grader {check.grader}: {exc.message}", field="--grader") from None


def grade_request(trace: ProductionTrace, check: RubricCheck) -> PairRequest:
    """The request that grades the trace's answer (as answer A) against the check."""
    return PairRequest(
        case_id=trace.case_id,
        query=trace.query,
        answer_a=trace.answer,
        answer_b=trace.answer,
        persona=check.persona,
        rubric=check.criterion,
        query_untrusted=True,  # a user's query: repeating it exempts nothing
    )


def grade_answers(
    store: Store, traces: list[ProductionTrace], check: RubricCheck, concurrency: int = 2
) -> tuple[dict[str, float | str], int]:
    """Case id -> the answer's P(YES) against the check, or why it could not be graded; and
    the model calls sent (0 on a rerun: the replies are cached in ``store``)."""
    from arena.models import CALLS, CallCounter
    from judges._pairwise import PairwiseJudge

    judge = PairwiseJudge(grading_judge(check), store=store)
    counter = CallCounter()
    gate = asyncio.Semaphore(concurrency)

    async def grade(trace: ProductionTrace) -> tuple[str, float | str]:
        async with gate:
            token = CALLS.set(counter)
            try:
                return trace.case_id, await judge.grade(grade_request(trace, check))
            except Exception as exc:  # as a judge does: a failed grade is reported, not raised
                return trace.case_id, f"the grader could not grade it: {str(exc)[:200]}"
            finally:
                CALLS.reset(token)

    async def every() -> list[tuple[str, float | str]]:
        return await asyncio.gather(*(grade(t) for t in traces))

    return dict(asyncio.run(every())), counter.sent


def rubric_flags(grades: dict[str, float | str]) -> dict[str, str]:
    """Case id -> why, for every answer graded below :data:`PASS_GRADE` or not graded."""
    flags = {}
    for case_id, grade in grades.items():
        if isinstance(grade, str):
            flags[case_id] = grade
        elif grade < PASS_GRADE:
            flags[case_id] = f"misses the rubric: P(YES) {grade:.2f} < {PASS_GRADE:g}"
    return flags

"""A battle: two variants' answers to one case, judged in both orders."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from arena.records.results import RunResult, utcnow
from arena.vocabulary import MODEL_A, MODEL_B, TIE_BOTHBAD, Winner
from judges._types import JudgeSpec, Verdict

#: Who decided a battle: the judge (a model or a person), the crash rule, or the golden rule
#: (the same final answer, different actions, and only one side passes its golden checks).
BattleSource = Literal["judge", "crash", "golden"]
JUDGE: Literal["judge"] = "judge"
CRASH: Literal["crash"] = "crash"
GOLDEN: Literal["golden"] = "golden"
#: Which answer of a crash battle crashed: A's, B's or both.
CrashedSide = Literal["a", "b", "both"]
#: The crash rule: a crashed answer loses; two crashed answers tie (both bad).
CRASH_WINNERS: dict[str, Winner] = {"a": MODEL_B, "b": MODEL_A, "both": TIE_BOTHBAD}


class Battle(BaseModel):
    """Variant A against variant B on one case: both verdicts and the combined outcome.

    ``verdict_ab`` showed A first, ``verdict_ba`` showed B first. ``flip`` is True when the two
    orders disagree (position inconsistency). ``winner`` is ``error`` when a verdict could not
    be read: such battles are never counted as ties. An answer in ``suspected_injection``
    never wins (the verdicts keep what the judge said, for review).

    ``source`` is ``crash`` when an answer crashed (its result has an error): the crash rule
    decides the battle without a judge call (the crashed answer loses, two crashed answers
    tie) and ``crashed`` says which side. ``source`` is ``golden`` when both answers say the
    same but did different things (tool calls, state changes, graph path) and only one of
    them passes the case's deterministic golden checks: that one wins, without a judge call.
    Such battles count in every rating and win rate, never in the judge's own health or
    accuracy figures (:attr:`by_rule`).
    """

    model_config = ConfigDict(extra="forbid")

    id: int | None = None
    run_id: int
    case_id: str
    repeat: int = 0
    variant_a: str
    variant_b: str
    hash_a: str
    hash_b: str
    result_a_id: int
    result_b_id: int
    winner: Winner
    strong: bool = False
    flip: bool = False
    p_a: float | None = Field(
        None, description="Order-averaged P(A better), in the modes that read probabilities."
    )
    tie_margin: float | None = Field(
        None,
        description="The margin of P(A better) around 0.5 that made a tie (probability "
        "modes; calibrated on the run unless the judge spec sets one).",
    )
    len_a: int = 0
    len_b: int = 0
    verdict_ab: Verdict | None = None
    verdict_ba: Verdict | None = None
    judge: JudgeSpec
    self_judged: bool = False
    suspected_injection: dict[str, list[str]] = Field(
        default_factory=dict,
        exclude_if=lambda v: not v,
        description="Variant -> why its answer seems to address the judge "
        "(judges._injection); when only one answer is flagged, the other one wins.",
    )
    confidence: float | None = Field(
        None,
        description="The judge's calibrated confidence that its winner is the one a person "
        "would pick (selective judging); None when not computed.",
    )
    abstained: bool = Field(
        False,
        description="The selective judge withheld its verdict (confidence below the "
        "calibrated threshold): the battle waits for a person and counts in no rating until "
        "one votes.",
    )
    error: str | None = None
    source: BattleSource = JUDGE
    crashed: CrashedSide | None = None
    created_at: datetime = Field(default_factory=utcnow)

    @model_validator(mode="after")
    def _crash_fields_agree(self) -> Battle:
        if (self.source == CRASH) != (self.crashed is not None):
            raise ValueError("a crash battle names the side that crashed, and only it does")
        if self.crashed is not None and self.winner != CRASH_WINNERS[self.crashed]:
            raise ValueError(f"side {self.crashed!r} crashed: the winner is not {self.winner!r}")
        if self.source == GOLDEN and self.winner not in (MODEL_A, MODEL_B):
            raise ValueError("a battle the golden checks decided has a winner")
        return self

    @property
    def is_crash(self) -> bool:
        """True when the crash rule decided the battle (no judge saw it)."""
        return self.source == CRASH

    @property
    def is_golden(self) -> bool:
        """True when the golden checks decided the battle (no judge saw it)."""
        return self.source == GOLDEN

    @property
    def by_rule(self) -> bool:
        """True when a rule decided the battle (a crash, the golden checks): no judge saw it."""
        return self.source != JUDGE


#: The fields that say which two results a battle (or a pair shown to a voter) compares.
PAIR_FIELDS = (
    "run_id",
    "case_id",
    "repeat",
    "variant_a",
    "variant_b",
    "hash_a",
    "hash_b",
    "result_a_id",
    "result_b_id",
)


def pair_fields(run_id: int, a: RunResult, b: RunResult) -> dict[str, Any]:
    """:data:`PAIR_FIELDS` of result ``a`` (shown as A) against ``b``, same case and repeat."""
    return {
        "run_id": run_id,
        "case_id": a.case_id,
        "repeat": a.repeat,
        "variant_a": a.variant,
        "variant_b": b.variant,
        "hash_a": a.variant_hash,
        "hash_b": b.variant_hash,
        "result_a_id": a.id,
        "result_b_id": b.id,
    }


def crashed_side(a: RunResult, b: RunResult) -> CrashedSide | None:
    """Which of two results crashed (ended in an error): ``a``, ``b``, ``both`` or None."""
    if a.error is not None and b.error is not None:
        return "both"
    if a.error is not None:
        return "a"
    return "b" if b.error is not None else None


def crash_battle(run_id: int, a: RunResult, b: RunResult, judge: JudgeSpec) -> Battle | None:
    """The battle of ``a`` against ``b`` by the crash rule, or None when neither crashed.

    No judge sees it, so it is never ``self_judged``; ``judge`` files it with that judge's
    battles (every judge of the run has the same crash battles)."""
    side = crashed_side(a, b)
    if side is None:
        return None
    return Battle(
        **pair_fields(run_id, a, b),
        winner=CRASH_WINNERS[side],
        len_a=len(a.output),
        len_b=len(b.output),
        judge=judge,
        source=CRASH,
        crashed=side,
    )


def golden_battle(
    run_id: int, a: RunResult, b: RunResult, judge: JudgeSpec, passed: Literal["a", "b"]
) -> Battle:
    """The battle of ``a`` against ``b`` decided by the golden checks: the side that
    ``passed`` them wins (two answers that say the same, made differently)."""
    return Battle(
        **pair_fields(run_id, a, b),
        winner=MODEL_A if passed == "a" else MODEL_B,
        len_a=len(a.output),
        len_b=len(b.output),
        judge=judge,
        source=GOLDEN,
    )


def judge_battles(battles: list[Battle]) -> list[Battle]:
    """The battles a judge decided: those a rule decided left out (for the judge's own
    figures)."""
    return [b for b in battles if not b.by_rule]

"""A battle: two variants' answers to one case, judged in both orders."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from arena.records import RunResult, utcnow
from arena.vocabulary import Winner
from judges.types import JudgeSpec, Verdict


class Battle(BaseModel):
    """Variant A against variant B on one case: both verdicts and the combined outcome.

    ``verdict_ab`` showed A first, ``verdict_ba`` showed B first. ``flip`` is True when the two
    orders disagree (position inconsistency). ``winner`` is ``error`` when a verdict could not
    be read: such battles are never counted as ties. An answer in ``suspected_injection``
    never wins (the verdicts keep what the judge said, for review).
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
        "(judges.injection); when only one answer is flagged, the other one wins.",
    )
    error: str | None = None
    created_at: datetime = Field(default_factory=utcnow)


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

"""The result every individual scorer returns."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

UnitFloat = Annotated[float, Field(ge=0.0, le=1.0)]


class Check(BaseModel):
    """One scorer's verdict: a score in [0, 1], whether it passed, and what it saw."""

    model_config = ConfigDict(extra="forbid")

    score: UnitFloat
    passed: bool
    details: dict[str, Any] = Field(default_factory=dict)


def clamp01(value: float) -> float:
    """``value`` limited to [0, 1]."""
    return min(1.0, max(0.0, float(value)))


def mean(values: list[float], default: float = 0.0) -> float:
    """The arithmetic mean, or ``default`` for an empty list."""
    return sum(values) / len(values) if values else default

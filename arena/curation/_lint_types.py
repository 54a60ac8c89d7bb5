"""A lint finding: the record every lint rule returns."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Severity = Literal["error", "warning", "info"]


class LintFinding(BaseModel):
    """One problem: its rule, how serious, which cases, and what to do."""

    rule: str
    severity: Severity
    cases: list[str] = Field(default_factory=list)
    message: str

"""Which regression rules exist, which block, and the knobs of the rules."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_DROP = 0.05
"""Default largest tolerated drop of the suite score."""


Severity = Literal["block", "warn", "flaky"]
"""``block`` fails the gate; ``warn`` is listed; ``flaky``: the case was flaky in the baseline."""

RULES: dict[str, str] = {
    "suite_drop": "the suite score drops by more than max_drop, significantly",
    "critical_broken": "a critical case goes from pass to fail (for a critical case edited "
    "since the baseline: on its previous version too)",
    "critical_missing": "a critical case that passed was not run, or a case critical in the "
    "baseline was removed or demoted",
    "happy_path_fail": "a happy-path case goes from pass to fail",
    "category_broken": "every case of a category fails (the baseline passed one)",
    "pass_to_fail": "any other counted case goes from pass to fail",
    "case_score_drop": "a case loses at least case_drop of mean score",
    "critical_failing": "a critical or happy-path case changed since the baseline (or new) "
    "fails and did not break (the baseline's code could not run on it, or fails it too)",
}
"""Every rule and what makes it fire."""
DEFAULT_BLOCKING: tuple[str, ...] = (
    "suite_drop",
    "critical_broken",
    "critical_missing",
    "happy_path_fail",
    "category_broken",
    "critical_failing",
)
"""Rules that fail the gate by default; the others are warnings."""


class RuleConfig(BaseModel):
    """Knobs of the regression rules."""

    model_config = ConfigDict(extra="forbid")

    block: list[str] = Field(
        default_factory=lambda: list(DEFAULT_BLOCKING),
        description="Rules that fail the gate; the others warn.",
    )
    max_drop: float = Field(
        MAX_DROP,
        ge=0,
        le=1,
        description="suite_drop: the largest suite-score drop tolerated (its interval must "
        "also lie below 0).",
    )
    case_drop: float = Field(
        0.1, gt=0, le=1, description="case_score_drop: the mean-score loss of one case that warns."
    )
    alpha: float = Field(
        0.05,
        gt=0,
        lt=1,
        description="With repeats: the level of the test that a case's pass rate fell.",
    )
    bootstrap: int = Field(
        2000, ge=100, description="Bootstrap rounds of the suite-score interval."
    )
    seed: int = Field(0, description="Seed of the bootstrap.")
    flaky_blocks: bool = Field(
        False, description="Let a case flaky in the baseline block (default: only listed)."
    )

    @field_validator("block")
    @classmethod
    def _known_rules(cls, value: list[str]) -> list[str]:
        unknown = sorted(set(value) - set(RULES))
        if unknown:
            raise ValueError(f"unknown rule(s) {', '.join(unknown)}; rules: {', '.join(RULES)}")
        return value


def severity(rule: str, config: RuleConfig, flaky: bool = False) -> Severity:
    if flaky and not config.flaky_blocks:
        return "flaky"
    return "block" if rule in config.block else "warn"

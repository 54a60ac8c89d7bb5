"""Per-variant run summary: cases, errors, latency, tokens, cost, requests sent."""

from __future__ import annotations

from pydantic import BaseModel, Field

from arena.records.results import RunResult, known_total


class VariantSummary(BaseModel):
    """What one variant's results add up to."""

    variant: str
    variant_hash: str
    results: int
    errors: int
    mean_latency_s: float
    input_tokens: int
    output_tokens: int
    cost_usd: float | None = Field(description="None: a result's cost is unknown.")
    model_calls: int
    fresh_model_calls: int
    tool_calls: int


def summarize(results: list[RunResult]) -> list[VariantSummary]:
    """One summary per variant, in first-seen order."""
    groups: dict[str, list[RunResult]] = {}
    for result in results:
        groups.setdefault(result.variant, []).append(result)
    return [
        VariantSummary(
            variant=name,
            variant_hash=rs[0].variant_hash,
            results=len(rs),
            errors=sum(1 for r in rs if r.error),
            mean_latency_s=sum(r.latency_s for r in rs) / len(rs),
            input_tokens=sum(r.input_tokens for r in rs),
            output_tokens=sum(r.output_tokens for r in rs),
            cost_usd=known_total(r.cost_usd for r in rs),
            model_calls=sum(r.model_calls for r in rs),
            fresh_model_calls=sum(r.fresh_model_calls for r in rs),
            tool_calls=sum(len(r.steps) for r in rs),
        )
        for name, rs in groups.items()
    ]

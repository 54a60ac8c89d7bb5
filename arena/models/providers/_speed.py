"""How fast a model answers, as a provider reports it (for ``arena plan``'s wall time)."""

from __future__ import annotations

from dataclasses import dataclass

CALL_LATENCY_S = 2.0
"""Seconds per model call when nothing is measured (an API model)."""


@dataclass(frozen=True)
class Speed:
    """A model's measured speed (tokens per second), or a fixed time per call."""

    prefill_tps: float | None = None
    decode_tps: float | None = None
    per_call_s: float = 0.0
    shared: bool = False
    """One server on this machine: at most its slots run at once (``Provider.server_slots``)."""
    source: str = "default"

    def seconds(self, calls: float, prompt_tokens: float, output_tokens: float) -> float:
        """Time of ``calls`` requests processing ``prompt_tokens`` new prompt tokens and
        generating ``output_tokens`` in all."""
        total = calls * self.per_call_s
        if self.prefill_tps:
            total += prompt_tokens / self.prefill_tps
        if self.decode_tps:
            total += output_tokens / self.decode_tps
        return total

    @property
    def text(self) -> str:
        """The speed in words, for a plan's "estimated from"."""
        if self.prefill_tps and self.decode_tps:
            return (
                f"{self.source}: {self.prefill_tps:.0f} tok/s prompt, "
                f"{self.decode_tps:.1f} tok/s output"
            )
        return self.source

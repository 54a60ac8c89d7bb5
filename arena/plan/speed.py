"""How fast a model is, for the plan's wall time: measured, never assumed when it can be.

A ``local:`` model is one llama.cpp server on this machine's CPU: its prompt processing
(prefill) and generation (decode) speeds in tokens per second are measured with one short
request (a prompt of about :data:`PROBE_PROMPT_TOKENS` tokens that no cache holds, and
:data:`PROBE_OUTPUT_TOKENS` generated tokens), read from the server's own timings, after one
tiny request that pages the weights in (a fresh server's first request is slower). The
server runs :data:`LOCAL_SLOTS` requests at once (``ARENA_LLAMA_PARALLEL``, batched on the
one CPU, so ``shared``) and queues the rest: more workers than slots do not go faster.
Other models (an API) take :data:`~arena.plan.estimate.CALL_LATENCY_S` per call, divided
among the workers.
Previous runs of a variant or model, when stored, come first (:mod:`arena.plan.estimate`).
"""

from __future__ import annotations

import functools
import os
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.models import ModelConfig

PROBE_PROMPT_TOKENS = 512  # a typical request: prompt processing is faster on long prompts
PROBE_OUTPUT_TOKENS = 16
LOCAL_SLOTS = 2
CALL_LATENCY_S = 2.0
"""Seconds per model call when nothing is measured (an API model)."""
_PROBE_WORDS = (
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "a",
    "lazy",
    "dog",
    "by",
    "the",
    "river",
)


@dataclass(frozen=True)
class Speed:
    """A model's measured speed (tokens per second), or a fixed time per call."""

    prefill_tps: float | None = None
    decode_tps: float | None = None
    per_call_s: float = 0.0
    shared: bool = False
    """One server on this machine: at most its slots run at once (:func:`parallel_lanes`)."""
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


def parallel_lanes(config: ModelConfig, workers: int) -> int:
    """How many of ``workers`` run at once on the model: a ``local:`` server serves its
    slots (``ARENA_LLAMA_PARALLEL``, default :data:`LOCAL_SLOTS`) and queues the rest."""
    if config.provider != "local":
        return max(1, workers)
    return max(1, min(workers, int(os.environ.get("ARENA_LLAMA_PARALLEL", str(LOCAL_SLOTS)))))


def default_speed(config: ModelConfig) -> Speed:
    """The speed assumed when nothing is measured: a fixed time per call (fake models: 0)."""
    if config.provider == "fake":
        return Speed(source="dataset")
    return Speed(per_call_s=CALL_LATENCY_S, shared=config.provider == "local", source="dataset")


def model_speed(config: ModelConfig, measure: bool = True) -> Speed:
    """The model's speed: measured for a ``local:`` model (when ``measure``), else assumed."""
    if config.provider == "local" and measure:
        return _probe_local(config.spec)
    return default_speed(config)


def probe_prompt(tokens: int = PROBE_PROMPT_TOKENS) -> str:
    """A prompt of about ``tokens`` tokens that starts with a fresh nonce (no cache holds it)."""
    words = [_PROBE_WORDS[i % len(_PROBE_WORDS)] for i in range(tokens)]
    return f"{uuid.uuid4().hex}\n" + " ".join(words) + "\nRepeat the first line."


@functools.cache
def _probe_local(spec: str) -> Speed:
    from arena.models import ModelConfig
    from arena.models.local_server import server_pool

    config = ModelConfig(spec=spec)
    server = server_pool().get(config.name)
    _post(server.base_url, config.name, prompt_tokens=8, max_tokens=1)  # warm-up
    started = time.monotonic()
    reply = _post(server.base_url, config.name)
    elapsed = time.monotonic() - started
    timings = reply.get("timings") or {}
    prefill = _rate(timings.get("prompt_n"), timings.get("prompt_ms"))
    decode = _rate(timings.get("predicted_n"), timings.get("predicted_ms"))
    source = f"measured on {spec}"
    if prefill is None or decode is None:  # no server timings: each call as long as this one
        return Speed(per_call_s=elapsed, shared=True, source=source)
    return Speed(prefill_tps=prefill, decode_tps=decode, shared=True, source=source)


def _rate(count: Any, ms: Any) -> float | None:
    try:
        n, t = float(count), float(ms)
    except (TypeError, ValueError):
        return None
    return n / (t / 1000.0) if n > 0 and t > 0 else None


def _post(
    base_url: str,
    model: str,
    prompt_tokens: int = PROBE_PROMPT_TOKENS,
    max_tokens: int = PROBE_OUTPUT_TOKENS,
) -> dict[str, Any]:
    import json
    import urllib.request

    body = {
        "model": model,
        "messages": [{"role": "user", "content": probe_prompt(prompt_tokens)}],
        "max_tokens": max_tokens,
        "temperature": 0.0,
        "ignore_eos": True,
    }
    request = urllib.request.Request(
        f"{base_url}/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=300) as response:
        reply: dict[str, Any] = json.loads(response.read())
    return reply

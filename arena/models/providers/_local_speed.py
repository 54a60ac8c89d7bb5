"""The speed probe of a ``local:`` model: one short request to its llama.cpp server.

Prompt processing (prefill) and generation (decode) speeds in tokens per second are read from
the server's own timings for a prompt of about :data:`PROBE_PROMPT_TOKENS` tokens that no cache
holds and :data:`PROBE_OUTPUT_TOKENS` generated tokens, after one tiny request that pages the
weights in (a fresh server's first request is slower). The server runs :func:`server_slots`
requests at once (``ARENA_LLAMA_PARALLEL``, batched on the one CPU) and queues the rest.
"""

from __future__ import annotations

import functools
import os
import time
import uuid
from typing import Any

from arena.models.providers._speed import Speed

PROBE_PROMPT_TOKENS = 512  # a typical request: prompt processing is faster on long prompts
PROBE_OUTPUT_TOKENS = 16
LOCAL_SLOTS = 2
"""Requests the llama.cpp server runs at once unless ``ARENA_LLAMA_PARALLEL`` says otherwise."""
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


def server_slots() -> int:
    """Requests the local server runs at once (``ARENA_LLAMA_PARALLEL``, default
    :data:`LOCAL_SLOTS`)."""
    return max(1, int(os.environ.get("ARENA_LLAMA_PARALLEL", str(LOCAL_SLOTS))))


def probe_prompt(tokens: int = PROBE_PROMPT_TOKENS) -> str:
    """A prompt of about ``tokens`` tokens that starts with a fresh nonce (no cache holds it)."""
    words = [_PROBE_WORDS[i % len(_PROBE_WORDS)] for i in range(tokens)]
    return f"{uuid.uuid4().hex}\n" + " ".join(words) + "\nRepeat the first line."


@functools.cache
def probe_local(spec: str) -> Speed:
    """The measured speed of the local model ``spec`` (once per process)."""
    from arena.models import ModelConfig
    from arena.models._local_server import server_pool

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

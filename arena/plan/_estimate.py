"""Per-unit estimates: from previous runs when the database has them, else from the dataset.

History: the mean model calls, tokens and latency of stored results without error of the same
variant version, else of any variant on the same model. Dataset: the prompt's size at
:data:`CHARS_PER_TOKEN`, one call per expected tool plus the answer, each later call carrying
the conversation so far (:data:`TURN_TOKENS` per turn; a conversation case is one
invocation per user turn, :func:`agent_turns`), :data:`OUTPUT_TOKENS` per reply (at
most the model's ``max_tokens``), and the time those tokens take at the model's speed
(:mod:`arena.plan._speed`: measured for a ``local:`` model, whose server caches the
conversation so far and so processes each prompt token once; else ``speed.CALL_LATENCY_S`` per
call). Cost applies the pricing table (or the variant's own prices) to the tokens and, for
self-hosted models priced per hour, to the latency.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arena.models import price_for
from arena.plan._models import Estimate
from arena.plan._speed import Speed, default_speed

if TYPE_CHECKING:
    from arena.golden import GoldenCase
    from arena.models import ModelConfig
    from arena.records.results import RunResult
    from arena.storage import Store
    from arena.variants.variant import Variant

CHARS_PER_TOKEN = 4
TOOL_SCHEMA_TOKENS = 60
"""Tokens one bound tool's JSON schema adds to every request."""
TURN_TOKENS = 80
"""Tokens a tool call and its observation add to the conversation."""
OUTPUT_TOKENS = 50
"""Tokens of one reply: a tool call or an answer (the Research Agent's replies on the local
models are 30-40 tokens in llama.cpp's timings; an API model's final answers run longer)."""
ANSWER_CHARS = OUTPUT_TOKENS * CHARS_PER_TOKEN
"""An answer's length when no stored answer says otherwise."""
HISTORY_SAMPLES = 200
"""Enough stored results per variant: older runs are not read."""


def tokens(text: str) -> int:
    """Rough token count of ``text``."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


@dataclass
class Usage:
    """Sums over stored results, to average."""

    results: int = 0
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    output_chars: int = 0
    runs: set[int] = field(default_factory=set)

    def add(self, result: RunResult) -> None:
        """Count one result without error."""
        self.results += 1
        self.calls += result.model_calls
        self.input_tokens += result.input_tokens
        self.output_tokens += result.output_tokens
        self.latency_s += result.latency_s
        self.output_chars += len(result.output)
        if result.run_id is not None:
            self.runs.add(result.run_id)


@dataclass
class History:
    """Stored results by variant version and by model spec."""

    by_version: dict[str, Usage] = field(default_factory=dict)
    by_model: dict[str, Usage] = field(default_factory=dict)

    def usage(self, variant: Variant) -> tuple[Usage, str] | None:
        """The best history for ``variant`` and a description of it, or None."""
        same = self.by_version.get(variant.version_hash)
        if same is not None and same.results:
            return same, f"history: {same.results} results of this version"
        model = self.by_model.get(variant.model.spec)
        if model is not None and model.results:
            return model, f"history: {model.results} results on {variant.model.spec}"
        return None


def read_history(store: Store | None, variants: Iterable[Variant]) -> History:
    """Stored results without error, newest runs first, until every variant has enough."""
    history = History()
    if store is None:
        return history
    wanted = {v.version_hash for v in variants}
    models = {v.version_hash: v.model.spec for v in store.variants()}
    for info in store.runs():
        for result in store.results(info.id):
            if result.error is not None:
                continue
            history.by_version.setdefault(result.variant_hash, Usage()).add(result)
            spec = models.get(result.variant_hash)
            if spec is not None:
                history.by_model.setdefault(spec, Usage()).add(result)
        if all(history.by_version.get(h, Usage()).results >= HISTORY_SAMPLES for h in wanted):
            break
    return history


def cost(config: ModelConfig, input_tokens: float, output_tokens: float, latency_s: float) -> float:
    """Dollars of one unit at the model's price."""
    return price_for(config).cost(round(input_tokens), round(output_tokens), latency_s)


def task_estimate(
    variant: Variant, cases: list[GoldenCase], history: History, speed: Speed | None = None
) -> Estimate:
    """Expected use of one of ``variant``'s tasks on ``cases``: from stored results, else
    from the dataset at the model's ``speed`` (default: :func:`default_speed`)."""
    found = history.usage(variant)
    if found is not None:
        usage, source = found
        n = usage.results
        calls, tokens_in = usage.calls / n, usage.input_tokens / n
        tokens_out, latency = usage.output_tokens / n, usage.latency_s / n
    else:
        speed = speed or default_speed(variant.model)
        calls, tokens_in, tokens_out, processed = _dataset_task(variant, cases)
        latency = speed.seconds(calls, processed if speed.shared else tokens_in, tokens_out)
        source = "dataset" if speed.source == "dataset" else f"dataset; {speed.text}"
    return Estimate(
        calls=calls,
        input_tokens=tokens_in,
        output_tokens=tokens_out,
        latency_s=latency,
        cost_usd=cost(variant.model, tokens_in, tokens_out, latency),
        source=source,
    )


def agent_turns(case: GoldenCase) -> int:
    """The agent invocations of one task: 1, or the conversation's ``max_turns``."""
    return case.conversation.max_turns if case.conversation is not None else 1


def expected_tool_calls(case: GoldenCase) -> int:
    """The tool calls a task is expected to make: the case's expected tools, or for a
    conversation the per-turn ``tools`` when they are more."""
    count = len(case.expected_tools)
    if case.conversation is not None:
        count = max(count, sum(len(e.tools) for e in case.conversation.expect))
    return count


def _dataset_task(variant: Variant, cases: list[GoldenCase]) -> tuple[float, float, float, float]:
    """Mean calls, input tokens (sent), output tokens and prompt tokens processed once. A
    conversation case is one invocation per user turn, its history growing turn by turn."""

    tools = len(variant.tools) if variant.tools is not None else _all_tools()
    per_reply = min(OUTPUT_TOKENS, variant.model.max_tokens)
    calls_sum = tokens_in_sum = processed_sum = 0.0
    for case in cases:
        turns = agent_turns(case)
        tool_calls = min(expected_tool_calls(case), variant.max_steps * turns) if tools else 0
        calls = turns + tool_calls
        prompt = tokens(variant.system_prompt) + tokens(case.input) + tools * TOOL_SCHEMA_TOKENS
        calls_sum += calls
        tokens_in_sum += calls * prompt + TURN_TOKENS * calls * (calls - 1) / 2
        processed_sum += prompt + TURN_TOKENS * (calls - 1)
    n = max(1, len(cases))
    return calls_sum / n, tokens_in_sum / n, calls_sum / n * per_reply, processed_sum / n


def _all_tools() -> int:
    from arena.defaults import TOOL_NAMES

    return len(TOOL_NAMES)


def mean_output_chars(variants: Iterable[Variant], history: History) -> float:
    """Mean answer length of these variants in stored results (:data:`ANSWER_CHARS` if none)."""
    lengths = [
        u.output_chars / u.results
        for v in variants
        if (found := history.usage(v)) is not None and (u := found[0]).results
    ]
    return sum(lengths) / len(lengths) if lengths else float(ANSWER_CHARS)

"""``--redact``: personal data and secrets taken out of a trace before it is stored or judged.

The rule set (:data:`RULES`) replaces e-mail addresses, phone numbers and API keys (OpenAI,
Anthropic, LangSmith, GitHub, AWS, Slack and Google keys, bearer tokens, JWTs) with
``[email redacted]``, ``[phone redacted]`` and ``[key redacted]``; then
:func:`arena.secrets.redact` replaces the values of this process's key variables and the
credentials of any URL. Every string of a trace is redacted: the query, the messages, the
answer, tool arguments and results (their keys too, nested), the error and the metadata.
Every pattern has bounded repeats and starts only at a token boundary, so it runs in time
linear in the text. Keys and tokens are taken out of everything stored even without
``--redact`` (:func:`arena.secrets.scrub`); ``--redact`` adds personal data.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.production._trace import ProductionTrace
from arena.secrets import KEY_REDACTED, TOKEN_PATTERN, scrub, unique_key
from arena.secrets import redact as redact_secrets


@dataclass(frozen=True)
class RedactionRule:
    """One rule: what it finds, and what replaces it."""

    name: str
    pattern: re.Pattern[str]
    replacement: str
    accept: Callable[[str], bool] = lambda _: True


def _phone_digits(text: str) -> bool:
    return 9 <= sum(c.isdigit() for c in text) <= 15


RULES: tuple[RedactionRule, ...] = (
    RedactionRule("key", TOKEN_PATTERN, KEY_REDACTED),  # the shapes the storage always redacts
    RedactionRule(
        "email",
        re.compile(
            r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}"
            r"(?:\.[A-Za-z0-9-]{1,63}){1,8}"
        ),
        "[email redacted]",
    ),
    RedactionRule(
        "phone",
        re.compile(
            r"(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]?\d{2,4}){1,5}"
            r"(?![\w])"
        ),
        "[phone redacted]",
        _phone_digits,
    ),
)


def redact_text(text: str, counts: dict[str, int] | None = None) -> str:
    """``text`` with every rule of :data:`RULES` applied, then :func:`arena.secrets.redact`;
    ``counts`` (rule name -> replacements) is added to when given."""
    for rule in RULES:

        def replace(match: re.Match[str], rule: RedactionRule = rule) -> str:
            if not rule.accept(match.group(0)):
                return match.group(0)
            if counts is not None:
                counts[rule.name] = counts.get(rule.name, 0) + 1
            return rule.replacement

        text = rule.pattern.sub(replace, text)
    return redact_secrets(text)


def _redact_value(value: Any, counts: dict[str, int]) -> Any:
    if isinstance(value, str):
        return redact_text(value, counts)
    if isinstance(value, dict):  # keys too: an e-mail used as a key in tool arguments
        out: dict[Any, Any] = {}
        for key, item in value.items():
            name = redact_text(key, counts) if isinstance(key, str) else key
            out[unique_key(out, name)] = _redact_value(item, counts)
        return out
    if isinstance(value, list):
        return [_redact_value(v, counts) for v in value]
    return value


def redact_trace(trace: ProductionTrace, counts: dict[str, int] | None = None) -> ProductionTrace:
    """A copy of ``trace`` with every string in it redacted (:func:`redact_text`); the
    timestamp is kept, and so is the id (sampled by already) unless a rule finds something in
    it: it is then ``trace-`` and a hash of it."""
    found: dict[str, int] = {} if counts is None else counts
    clean = _redact_value(trace.model_dump(mode="json", exclude={"trace_id", "timestamp"}), found)
    trace_id = trace.trace_id
    if redact_text(trace_id, found) != trace_id:
        trace_id = _hashed(trace_id)
    return ProductionTrace.model_validate(
        {**clean, "trace_id": trace_id, "timestamp": trace.timestamp}
    )


def _hashed(trace_id: str) -> str:
    return "trace-" + hashlib.sha256(trace_id.encode()).hexdigest()[:16]


def scrub_trace(trace: ProductionTrace) -> ProductionTrace:
    """``trace`` with keys, tokens and credentials taken out of every string of it, keys of
    tool arguments and metadata included (:func:`arena.secrets.scrub`): applied to every
    trace read, with or without ``--redact``; the same object when there were none. An id
    holding one is hashed."""
    data = trace.model_dump(mode="json", exclude={"trace_id", "timestamp"})
    clean = scrub(data)
    trace_id = trace.trace_id if scrub(trace.trace_id) == trace.trace_id else None
    if clean == data and trace_id is not None:
        return trace
    return ProductionTrace.model_validate(
        {**clean, "trace_id": trace_id or _hashed(trace.trace_id), "timestamp": trace.timestamp}
    )

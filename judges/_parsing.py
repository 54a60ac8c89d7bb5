"""Read a verdict from judge text or from first-token log-probabilities."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from arena.vocabulary import LABELS, SEAT_TOKENS, SHORT_LABELS, Label

if TYPE_CHECKING:
    from judges._types import JudgeSpec

_VERDICT = re.compile(r"\[\[\s*(A\s*>>\s*B|A\s*>\s*B|A\s*=\s*B|B\s*>\s*A|B\s*>>\s*A|A|B|C)\s*\]\]")


def parse_verdict(text: str) -> Label | None:
    """The LAST ``[[...]]`` verdict in a written judgement.

    Args:
        text: the judge's reply.

    Returns:
        ``A>>B``, ``A>B``, ``A=B``, ``B>A`` or ``B>>A`` (``[[A]]``, ``[[B]]``, ``[[C]]`` as in
        MT-Bench), or None when there is none.
    """
    matches = _VERDICT.findall(text or "")
    if not matches:
        return None
    token = re.sub(r"\s+", "", matches[-1])
    label = SHORT_LABELS.get(token, token)
    return label if label in LABELS else None


def first_token_probs(
    response_metadata: dict[str, Any], choices: dict[str, tuple[str, ...]] | None = None
) -> dict[str, float]:
    """Probability of each choice for the first generated token, from OpenAI-style logprobs.

    Args:
        response_metadata: a chat reply's ``response_metadata`` holding ``logprobs``.
        choices: maps a choice to the token spellings that count for it (compared stripped
            and upper-cased; spellings of one choice are summed); default: the letters A and B.

    Returns:
        The probability of each choice ({} when the reply has no log-probabilities).
    """
    choices = choices or SEAT_TOKENS
    content = (response_metadata.get("logprobs") or {}).get("content") or []
    if not content:
        return {}
    probs = dict.fromkeys(choices, 0.0)
    for entry in content[0].get("top_logprobs") or []:
        token = str(entry.get("token", "")).strip().upper()
        for choice, spellings in choices.items():
            if token in spellings:
                probs[choice] += math.exp(float(entry["logprob"]))
    return probs


def reading_margin(spec: JudgeSpec) -> float:
    """The tie margin of one order's verdict: the spec's, else the default (a margin
    calibrated on the run applies to the combined outcome only)."""
    from judges._types import DEFAULT_TIE_MARGIN

    return DEFAULT_TIE_MARGIN if spec.tie_margin is None else spec.tie_margin


def label_from_probability(p_first: float, tie_margin: float) -> Label:
    """A verdict label from P(first-shown answer is better).

    Args:
        p_first: the probability that the first-shown answer is better.
        tie_margin: within this of 0.5 the label is a tie.

    Returns:
        ``A>B`` or ``A>>B``, ``B>A`` or ``B>>A``, or ``A=B``.
    """
    if abs(p_first - 0.5) < tie_margin:
        return "A=B"
    if p_first >= 0.9:
        return "A>>B"
    if p_first > 0.5:
        return "A>B"
    if p_first <= 0.1:
        return "B>>A"
    return "B>A"

"""Trajectory metrics over tool-name sequences.

Conventions: two empty sequences agree perfectly (every metric is 1); an empty side
against a non-empty one scores 0 on the overlap metrics.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

EFFICIENCY_PENALTY = 0.2
"""Score lost per step beyond ``max_steps`` (the seeds' trajectory evaluator)."""
FORBIDDEN_PENALTY = 0.5
"""Score lost per call to a forbidden tool (the seeds' trajectory evaluator)."""


class ToolOverlap(BaseModel):
    """Precision, recall and F1 of the agent's tool calls against a reference (multisets)."""

    model_config = ConfigDict(extra="forbid")

    precision: float
    recall: float
    f1: float
    matched: int
    agent_calls: int
    reference_calls: int


def tool_overlap(agent: Sequence[str], reference: Sequence[str]) -> ToolOverlap:
    """Multiset precision/recall/F1 of tool names (promptfoo's tool-call F1, with counts).

    A call matches one reference occurrence of the same name at most once, so calling
    a tool twice when the reference has it once costs precision.
    """
    common = Counter(agent) & Counter(reference)
    matched = sum(common.values())
    if not agent and not reference:
        precision = recall = f1 = 1.0
    else:
        precision = matched / len(agent) if agent else 0.0
        recall = matched / len(reference) if reference else 0.0
        total = precision + recall
        f1 = 2 * precision * recall / total if total else 0.0
    return ToolOverlap(
        precision=precision,
        recall=recall,
        f1=f1,
        matched=matched,
        agent_calls=len(agent),
        reference_calls=len(reference),
    )


def tool_iou(agent: Sequence[str], reference: Sequence[str]) -> float:
    """Jaccard index of the two sets of tool names (1 when both are empty)."""
    a, b = set(agent), set(reference)
    union = a | b
    return len(a & b) / len(union) if union else 1.0


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of two sequences."""
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b, start=1):
            current.append(previous[j - 1] + 1 if x == y else max(previous[j], current[j - 1]))
        previous = current
    return previous[-1]


def lcs_ratio(agent: Sequence[str], expected_order: Sequence[str]) -> float:
    """LCS of the agent's calls and the expected order, over ``len(expected_order)``.

    1 when the expected tools appear in order (extra calls in between are allowed);
    1 for an empty expected order.
    """
    if not expected_order:
        return 1.0
    return lcs_length(agent, expected_order) / len(expected_order)


def edit_distance(a: Sequence[str], b: Sequence[str]) -> int:
    """Levenshtein distance between two sequences (insert, delete, substitute cost 1)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        current = [i]
        for j, y in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def edit_similarity(agent: Sequence[str], reference: Sequence[str]) -> float:
    """``1 - edit_distance / max(len)``; 1 when both are empty."""
    longest = max(len(agent), len(reference))
    return 1.0 - edit_distance(agent, reference) / longest if longest else 1.0


def efficiency(steps: int, max_steps: int) -> float:
    """1 within ``max_steps``, then minus 0.2 per extra step, floored at 0."""
    if steps <= max_steps:
        return 1.0
    return max(0.0, 1.0 - (steps - max_steps) * EFFICIENCY_PENALTY)


def forbidden_violations(agent: Sequence[str], forbidden: Sequence[str]) -> list[str]:
    """The agent's calls (in order, with repeats) to forbidden tools."""
    banned = set(forbidden)
    return [name for name in agent if name in banned]


def forbidden_score(agent: Sequence[str], forbidden: Sequence[str]) -> float:
    """1 minus 0.5 per call to a forbidden tool, floored at 0."""
    return max(0.0, 1.0 - len(forbidden_violations(agent, forbidden)) * FORBIDDEN_PENALTY)


def min_calls_score(calls: int, min_tool_calls: int) -> float:
    """``calls / min_tool_calls`` capped at 1 (1 when no minimum is set)."""
    if min_tool_calls <= 0:
        return 1.0
    return min(1.0, calls / min_tool_calls)


def best_alternative(
    agent: Sequence[str], alternatives: Sequence[Sequence[str]]
) -> tuple[int, ToolOverlap]:
    """The index of the acceptable tool set the agent's calls fit best, and that overlap.

    Ties go to the earlier alternative. An empty alternative accepts "no tools".
    """
    if not alternatives:
        raise ValueError("no alternatives to choose from")
    scored = [(tool_overlap(agent, alt), -i) for i, alt in enumerate(alternatives)]
    overlap, neg_index = max(scored, key=lambda pair: (pair[0].f1, pair[0].recall, pair[1]))
    return -neg_index, overlap


def hallucinated_tools(agent: Sequence[str], available: set[str] | None) -> list[str]:
    """Distinct called tool names that the dataset does not offer (empty if unknown)."""
    if available is None:
        return []
    return sorted({name for name in agent if name not in available})

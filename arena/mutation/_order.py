"""Which cases a mutant runs, most likely to kill it first.

Only cases the original variant passes can show a kill (a pass turned into a fail), so only
those run. A tool mutant runs first the cases that expect its tool, then those whose original
run called it, then the rest (critical before standard, then the dataset's order); a config
mutant runs critical cases first and, among them, those expecting the most tool calls; the
conversation operator runs only the conversation cases it shortens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.golden import GoldenCase
from arena.mutation._mutant import Mutation
from arena.records.results import RunResult

_TIERS = {"critical": 0, "standard": 1, "pending": 2}


def tool_targets(mutation: Mutation) -> list[str]:
    """The tools a mutation targets (two for a swap, none for a config mutation)."""
    pair = mutation.settings.get("pair")
    if isinstance(pair, list):
        return [str(name) for name in pair]
    return [mutation.target]


def expects(case: GoldenCase, tool: str) -> bool:
    """The case names ``tool`` in an expectation (tools, order, arguments, alternatives, turns)."""
    return tool in case.all_tool_names() and tool not in case.forbidden_tools


def called(results: Sequence[RunResult], tool: str) -> bool:
    """Some run of ``results`` called ``tool``."""
    return any(step.tool == tool for r in results for step in r.steps)


def order_cases(
    kind: str,
    mutation: Mutation,
    cases: Sequence[GoldenCase],
    original: Mapping[str, Sequence[RunResult]],
) -> list[GoldenCase]:
    """``cases`` (the original's passing ones) in the order the mutant runs them.

    Args:
        kind: the operator's kind (``tool``, ``config`` or ``conversation``).
        mutation: the mutant's mutation.
        cases: the cases the original passes, in the dataset's order.
        original: the original's results by case id.
    """
    if kind == "conversation":
        cases = [c for c in cases if c.conversation is not None]
    position = {c.id: i for i, c in enumerate(cases)}

    def rank(case: GoldenCase) -> tuple[int, int, int]:
        tier = _TIERS.get(str(case.tier), 1)
        if kind != "tool":
            return (tier, -len(case.expected_tools), position[case.id])
        tools = tool_targets(mutation)
        if any(expects(case, t) for t in tools):
            near = 0
        elif any(called(original.get(case.id, ()), t) for t in tools):
            near = 1
        else:
            near = 2
        return (near, tier, position[case.id])

    return sorted(cases, key=rank)

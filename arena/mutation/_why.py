"""Why a mutant survived, read from the cases' expectations (the proposal that would kill it
is :mod:`arena.mutation._propose`).

Every reason names the cases that exercise the mutant's target and what they do not check
("no case expects `open_ticket`'s output: H-3 checks only that `open_ticket` was called"), or,
when they do check it, that the answer did not depend on the tool's result.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from arena.golden import GoldenCase
from arena.golden._calls import item_text
from arena.mutation._mutant import Mutation
from arena.mutation._order import called, expects, tool_targets
from arena.records.results import RunResult

_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _ids(cases: Sequence[GoldenCase]) -> str:
    return ", ".join(c.id for c in cases)


def _verb(cases: Sequence[GoldenCase], one: str, many: str) -> str:
    return f"{_ids(cases)} {one if len(cases) == 1 else many}"


def observations(results: Sequence[RunResult], tools: Sequence[str]) -> list[str]:
    """What ``tools`` returned in ``results`` (their steps' observations)."""
    return [s.observation for r in results for s in r.steps if s.tool in tools and s.observation]


def expected_texts(case: GoldenCase) -> list[str]:
    """The texts the case's answer must contain (``expected_output_contains`` and exact)."""
    texts: list[str] = []
    for item in case.expected_output_contains:
        text = item_text(item)
        texts += [text] if isinstance(text, str) else [str(x) for x in text]
    if case.expected_output_exact:
        texts.append(case.expected_output_exact)
    return [t for t in texts if t.strip()]


def checks_output_of(case: GoldenCase, observations: Sequence[str]) -> bool:
    """The case expects, in the answer, something one of ``observations`` gave (a text it
    contains, or one of its numbers)."""
    seen = " ".join(observations).lower()
    numbers = set(_NUMBER.findall(seen))
    for text in expected_texts(case):
        if text.lower() in seen or set(_NUMBER.findall(text)) & numbers:
            return True
    return False


_WITH = {
    "tool_raises": "when it raised",
    "tool_empty": "with an empty result",
    "tool_stale": "with a wrong result",
    "tools_swapped": "with the other tool's result",
}


def checks_tool(case: GoldenCase, results: Sequence[RunResult], tools: Sequence[str]) -> bool:
    """``case`` expects, in the answer, something ``tools`` gave in the original's ``results``."""
    return checks_output_of(case, observations(results, tools))


def _tool_reason(
    operator: str,
    tools: Sequence[str],
    cases: Sequence[GoldenCase],
    original: Mapping[str, Sequence[RunResult]],
) -> str:
    joined = " or ".join(f"`{n}`" for n in tools)
    using = [c for c in cases if any(called(original.get(c.id, ()), t) for t in tools)]
    if not using:
        ran = f"{len(cases)} case{'' if len(cases) == 1 else 's'} run"
        if len(tools) == 1:
            return f"no case calls `{tools[0]}`: the original never called it on the {ran}"
        return f"no case calls {joined}: the original called neither on the {ran}"
    expecting = [c for c in using if any(expects(c, t) for t in tools)]
    if operator == "tool_removed":
        if not expecting:
            calling = _verb(using, "calls", "call")
            return f"{calling} {joined} but no case expects it (expected_tools, expected_args)"
        return f"{_verb(expecting, 'expects', 'expect')} {joined}, yet still passed without it"
    checking = [c for c in using if checks_tool(c, original.get(c.id, ()), tools)]
    if checking:
        what = _WITH.get(operator, "with the fault")
        return (
            f"{_verb(checking, 'expects', 'expect')} what {joined} returned, yet still passed "
            f"{what}: the agent's answer did not depend on the tool's result"
        )
    if expecting:
        return (
            f"no case expects {joined}'s output: "
            f"{_verb(expecting, 'checks', 'check')} only that {joined} was called"
        )
    return f"{_verb(using, 'calls', 'call')} {joined} but no case expects its output"


def why_survived(
    operator: str,
    kind: str,
    mutation: Mutation,
    cases: Sequence[GoldenCase],
    original: Mapping[str, Sequence[RunResult]],
    mutant: Sequence[RunResult],
) -> str:
    """Why no case the mutant ran failed (``cases``: those it ran, in order)."""
    if not cases:
        return "no case the original passes could exercise it"
    if kind == "tool":
        return _tool_reason(operator, tool_targets(mutation), cases, original)
    changed = sorted(
        {r.case_id for r in mutant for o in original.get(r.case_id, ()) if o.output != r.output}
    )
    differ = f" ({', '.join(changed)} answered differently)" if changed else ""
    if kind == "conversation":
        return (
            f"no conversation case expects anything after the user's first turn: "
            f"{_ids(cases)} still passed when the user gave up{differ}"
        )
    if operator == "max_steps_one":
        many = [c for c in cases if len(c.expected_tools) > 1 or len(c.expected_order) > 1]
        if not many:
            return "no case expects more than one tool call (expected_tools, expected_order)"
        several = _verb(many, "expects", "expect")
        return f"{several} several tool calls, yet passed with a budget of one{differ}"
    if operator == "model_weaker":
        spec = mutation.settings.get("spec", "the weaker model")
        return (
            f"every case the original passes also passed on {spec}{differ}: no case is hard "
            "enough to tell the models apart"
        )
    if operator in ("prompt_dropped", "prompt_truncated"):
        how = "without" if operator == "prompt_dropped" else "with half of"
        return (
            f"every case still passed {how} the system prompt{differ}: no case checks "
            "what the prompt asks for"
        )
    return f"every case the original passes ({len(cases)}) still passed{differ}"

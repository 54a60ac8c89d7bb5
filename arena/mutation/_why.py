"""Why a mutant survived, read from the cases' expectations, and the case that would kill it.

Every reason names the cases that exercise the mutant's target and what they do not check
("no case expects `open_ticket`'s output: H-3 checks only that `open_ticket` was called").
The proposal is a pending golden case in the format ``arena golden add`` writes (built by
:func:`arena.curation._grow.case_from_result` from the original's stored result), with the
expectation that would have killed the mutant added, and the command that starts it.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from arena.curation._grow import case_from_result, next_case_id
from arena.golden import GoldenCase, GoldenDataset
from arena.mutation._mutant import Mutation
from arena.mutation._order import called, expects, tool_targets
from arena.records.results import RunResult
from arena.secrets import redact

_OUTPUT_OPERATORS = ("tool_empty", "tool_stale")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _ticked(names: Sequence[str]) -> str:
    return " and ".join(f"`{n}`" for n in names)


def _ids(cases: Sequence[GoldenCase]) -> str:
    return ", ".join(c.id for c in cases)


def _verb(cases: Sequence[GoldenCase], one: str, many: str) -> str:
    return f"{_ids(cases)} {one if len(cases) == 1 else many}"


def _observations(results: Sequence[RunResult], tools: Sequence[str]) -> list[str]:
    return [s.observation for r in results for s in r.steps if s.tool in tools and s.observation]


def _expected_texts(case: GoldenCase) -> list[str]:
    texts: list[str] = []
    for item in case.expected_output_contains:
        texts += [item] if isinstance(item, str) else [str(x) for x in item]
    if case.expected_output_exact:
        texts.append(case.expected_output_exact)
    return [t for t in texts if t.strip()]


def checks_output_of(case: GoldenCase, observations: Sequence[str]) -> bool:
    """The case expects, in the answer, something one of ``observations`` gave (a text it
    contains, or one of its numbers)."""
    seen = " ".join(observations).lower()
    numbers = set(_NUMBER.findall(seen))
    for text in _expected_texts(case):
        if text.lower() in seen or set(_NUMBER.findall(text)) & numbers:
            return True
    return False


def _tool_reason(
    operator: str,
    tools: Sequence[str],
    cases: Sequence[GoldenCase],
    original: Mapping[str, Sequence[RunResult]],
) -> str:
    names = _ticked(tools)
    using = [c for c in cases if any(called(original.get(c.id, ()), t) for t in tools)]
    if not using:
        return f"no case calls {names}: the original never called it on the {len(cases)} cases run"
    expecting = [c for c in using if any(expects(c, t) for t in tools)]
    if operator in _OUTPUT_OPERATORS:
        checking = [c for c in using if checks_output_of(c, _observations(original[c.id], tools))]
        if not checking and expecting:
            return (
                f"no case expects {names}'s output: "
                f"{_verb(expecting, 'checks', 'check')} only that {names} was called"
            )
        if not checking:
            return f"{_verb(using, 'calls', 'call')} {names} but no case expects its output"
        return (
            f"{_verb(checking, 'expects', 'expect')} what {names} returned, yet still "
            "passed: the agent's answer did not depend on the tool's result"
        )
    if not expecting:
        calling = _verb(using, "calls", "call")
        return f"{calling} {names} but no case expects it (expected_tools, expected_args)"
    expecting_ = _verb(expecting, "expects", "expect")
    return f"{expecting_} {names}, yet still passed: the failed call was not required"


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


def _strengthen(case: dict[str, Any], operator: str, tools: list[str], seen: list[str]) -> None:
    expected = list(case.get("expected_tools", []))
    case["expected_tools"] = expected + [t for t in tools if t not in expected]
    if operator in _OUTPUT_OPERATORS and seen:
        numbers = _NUMBER.findall(" ".join(seen))
        value = numbers[0] if numbers else seen[0].strip()[:60]
        wanted = list(case.get("expected_output_contains", []))
        case["expected_output_contains"] = [*wanted, value]


def propose(
    operator: str,
    kind: str,
    mutation: Mutation,
    why: str,
    cases: Sequence[GoldenCase],
    original: Mapping[str, Sequence[RunResult]],
    dataset: GoldenDataset,
    dataset_path: str = "",
) -> dict[str, Any] | None:
    """A pending golden case that would kill the survivor, and the ``arena golden add``
    command that starts it from the original's stored result (None without a case)."""
    tools = tool_targets(mutation) if kind == "tool" else []
    using = [c for c in cases if any(called(original.get(c.id, ()), t) for t in tools)]
    if tools and not using and cases:
        return {"command": None, "case": _new_case(tools, why, mutation, cases[0], dataset)}
    if not cases:
        return None
    source = (using or list(cases))[0]
    runs = [r for r in original.get(source.id, ()) if r.id is not None]
    if not runs:
        return None
    new_id = next_case_id(dataset, source.category)
    case = case_from_result(runs[0], source, case_id=new_id, reason=f"{mutation.id}: {why}")
    case.pop("added", None)
    case["notes"] = redact(case["notes"])  # it quotes the stored answer or error
    _strengthen(case, operator, tools, _observations(runs, tools))
    command = f"arena golden add --from-result {runs[0].id} --reason {shlex.quote(mutation.id)}" + (
        f" --dataset {shlex.quote(dataset_path)}" if dataset_path else ""
    )
    return {"command": command, "case": case}


def _new_case(
    tools: list[str], why: str, mutation: Mutation, like: GoldenCase, dataset: GoldenDataset
) -> dict[str, Any]:
    """A pending case to write for a tool no case calls (no stored result to start from)."""
    return {
        "id": next_case_id(dataset, like.category),
        "input": f"TODO: a request that only {' and '.join(tools)} can answer",
        "category": like.category,
        "tier": "pending",
        "expected_tools": tools,
        "notes": "Write the request and what the answer must contain from the tool's result.",
        "reason": f"{mutation.id}: {why}",
    }

"""Trajectory match modes with argument modes, per-tool overrides and partial credit.

Semantics follow langchain-ai/agentevals (``trajectory/match.py``, ``trajectory/utils.py``);
the implementation is our own and adds partial credit.

Trajectory modes (agent calls A, reference calls R; a call pair matches when the names
are equal and the argument matcher accepts the two argument dicts):

========== ============================================ ==============================
mode       boolean                                      partial credit
========== ============================================ ==============================
strict     same length, call i matches call i           matching positions / max(len)
unordered  a one-to-one matching covers A and R         matched pairs / max(len)
subset     every agent call matches a distinct ref call matched pairs / len(A)
superset   every ref call matches a distinct agent call matched pairs / len(R)
========== ============================================ ==============================

Partial credit is 1 when the denominator is 0. Unordered, subset and superset use a
maximum bipartite matching (agentevals matches greedily, which can miss a matching
that exists when argument modes are not exact), so ``strict`` implies ``unordered``.

Argument modes, always read as *agent args* against *reference args*:
``exact`` (equal dicts), ``ignore`` (always true), ``subset`` (every agent key/value is
in the reference), ``superset`` (every reference key/value is in the agent's args) and
``approx`` (every reference arg approximately satisfied, as for ``expected_args``).
A per-tool override is a mode name, a list of keys (dotted paths) that must be equal,
or a callable ``(agent_args, reference_args) -> bool``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arena.records import TrajectoryStep
from arena.scoring.args import args_satisfied

MatchMode = Literal["strict", "unordered", "subset", "superset"]
ArgsMode = Literal["exact", "ignore", "subset", "superset", "approx"]
ArgsMatcher = Callable[[Mapping[str, Any], Mapping[str, Any]], bool]
ArgsOverride = ArgsMode | list[str] | ArgsMatcher
MATCH_MODES: tuple[MatchMode, ...] = ("strict", "unordered", "subset", "superset")


class ToolCall(BaseModel):
    """A tool name with its arguments."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    args: dict[str, Any] = Field(default_factory=dict)


class TrajectoryMatch(BaseModel):
    """A match verdict: the boolean of the mode and partial credit in [0, 1]."""

    model_config = ConfigDict(extra="forbid")

    mode: MatchMode
    args_mode: str
    matched: bool
    score: float
    matched_pairs: int
    agent_calls: int
    reference_calls: int


def _exact(agent: Mapping[str, Any], reference: Mapping[str, Any]) -> bool:
    return dict(agent) == dict(reference)


def _ignore(agent: Mapping[str, Any], reference: Mapping[str, Any]) -> bool:
    return True


def _subset(agent: Mapping[str, Any], reference: Mapping[str, Any]) -> bool:
    return all(key in reference and reference[key] == value for key, value in agent.items())


def _superset(agent: Mapping[str, Any], reference: Mapping[str, Any]) -> bool:
    return all(key in agent and agent[key] == value for key, value in reference.items())


_MATCHERS: dict[str, ArgsMatcher] = {
    "exact": _exact, "ignore": _ignore, "subset": _subset, "superset": _superset,
    "approx": args_satisfied,
}


def _nested(args: Mapping[str, Any], path: str) -> Any:
    current: Any = args
    for part in path.split("."):
        if not isinstance(current, Mapping):
            return None
        current = current.get(part)
    return current


def _keys_matcher(keys: list[str]) -> ArgsMatcher:
    def matcher(agent: Mapping[str, Any], reference: Mapping[str, Any]) -> bool:
        return all(_nested(agent, key) == _nested(reference, key) for key in keys)

    return matcher


def args_matcher(
    tool: str, mode: ArgsMode, overrides: Mapping[str, ArgsOverride] | None = None
) -> ArgsMatcher:
    """The argument matcher for ``tool``: its override if any, else the mode's matcher."""
    override = (overrides or {}).get(tool)
    if override is None:
        return _MATCHERS[mode]
    if isinstance(override, str):
        if override not in _MATCHERS:
            raise ValueError(f"unknown argument mode {override!r} for tool {tool!r}")
        return _MATCHERS[override]
    if isinstance(override, list):
        return _keys_matcher(override)
    if callable(override):
        return override
    raise ValueError(f"invalid argument override for tool {tool!r}: {override!r}")


def _pair_ok(agent: ToolCall, reference: ToolCall, mode: ArgsMode,
             overrides: Mapping[str, ArgsOverride] | None) -> bool:
    if agent.name != reference.name:
        return False
    return bool(args_matcher(reference.name, mode, overrides)(agent.args, reference.args))


def _max_matching(edges: list[list[int]], n_right: int) -> int:
    """Size of a maximum bipartite matching (Kuhn's augmenting paths)."""
    owner = [-1] * n_right

    def augment(left: int, seen: list[bool]) -> bool:
        for right in edges[left]:
            if not seen[right]:
                seen[right] = True
                if owner[right] == -1 or augment(owner[right], seen):
                    owner[right] = left
                    return True
        return False

    return sum(augment(left, [False] * n_right) for left in range(len(edges)))


def match_trajectory(
    agent: Sequence[ToolCall],
    reference: Sequence[ToolCall],
    mode: MatchMode = "strict",
    args_mode: ArgsMode = "exact",
    overrides: Mapping[str, ArgsOverride] | None = None,
) -> TrajectoryMatch:
    """Match the agent's calls against the reference under ``mode`` (see module doc)."""
    if mode not in MATCH_MODES:
        raise ValueError(f"unknown trajectory match mode {mode!r}")
    if args_mode not in _MATCHERS:
        raise ValueError(f"unknown argument mode {args_mode!r}")
    n_a, n_r = len(agent), len(reference)
    if mode == "strict":
        pairs = sum(_pair_ok(a, r, args_mode, overrides)
                    for a, r in zip(agent, reference, strict=False))
        matched, denominator = n_a == n_r and pairs == n_a, max(n_a, n_r)
    else:
        edges = [[j for j, r in enumerate(reference) if _pair_ok(a, r, args_mode, overrides)]
                 for a in agent]
        pairs = _max_matching(edges, n_r)
        if mode == "unordered":
            matched, denominator = pairs == n_a == n_r, max(n_a, n_r)
        elif mode == "subset":
            matched, denominator = pairs == n_a, n_a
        else:
            matched, denominator = pairs == n_r, n_r
    score = pairs / denominator if denominator else 1.0
    return TrajectoryMatch(mode=mode, args_mode=args_mode, matched=matched, score=score,
                           matched_pairs=pairs, agent_calls=n_a, reference_calls=n_r)


def calls_from_steps(steps: Sequence[TrajectoryStep]) -> list[ToolCall]:
    """ToolCalls from TrajectorySteps (errored calls included: they were attempted)."""
    return [ToolCall(name=step.tool, args=dict(step.args)) for step in steps]

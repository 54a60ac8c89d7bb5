"""Trajectory match modes with argument modes, per-tool overrides and partial credit.

Modelled on langchain-ai/agentevals (``trajectory/match.py``, ``trajectory/utils.py``); the
implementation is our own, adds partial credit, and differs from agentevals 0.0.9 on purpose
in the four points listed at the end (``agentevals_compatible=True`` reproduces agentevals).

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

Differences from agentevals 0.0.9, and what ``agentevals_compatible=True`` does instead:

(a) unordered / subset / superset take a maximum matching; agentevals pairs greedily (each
    reference call takes the first unused agent call that fits), which can miss a one-to-one
    matching that exists when argument modes are not exact. Compatible: greedy.
(b) The argument mode always reads agent args against reference args. agentevals reverses
    that in ``subset`` (and in the second half of ``unordered``, which checks both
    directions), so there its ``subset``/``superset`` argument modes act as our
    ``superset``/``subset``. Compatible: agentevals' directions.
(c) ``strict`` compares the calls position by position. agentevals compares assistant
    messages and, within one message, matches parallel calls in any order; a trajectory
    here is a flat list of calls without message boundaries. Compatible: the same (each
    call is its own message).
(d) An empty per-tool key list here matches every call; agentevals ignores an empty (falsy)
    override and uses the argument mode. Argument values compare as Python values here
    (a tuple differs from a list); agentevals compares JSON-decoded arguments. Compatible:
    both as agentevals.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from arena.records.results import TrajectoryStep
from arena.scoring._args import args_satisfied

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
    "exact": _exact,
    "ignore": _ignore,
    "subset": _subset,
    "superset": _superset,
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
    tool: str,
    mode: ArgsMode,
    overrides: Mapping[str, ArgsOverride] | None = None,
    *,
    agentevals_compatible: bool = False,
) -> ArgsMatcher:
    """The argument matcher for ``tool``: its override if any, else the mode's matcher.

    Compatible with agentevals, an empty (falsy) override is ignored.
    """
    override = (overrides or {}).get(tool)
    if override is None or (agentevals_compatible and not override):
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


def _json_args(args: dict[str, Any]) -> dict[str, Any]:
    """Arguments as agentevals sees them: through JSON (tuples become lists)."""
    try:
        decoded = json.loads(json.dumps(args))
    except (TypeError, ValueError):
        return args
    return decoded if isinstance(decoded, dict) else args


class _Pairing:
    """Which agent call fits which reference call, under the argument mode and overrides."""

    def __init__(
        self, mode: ArgsMode, overrides: Mapping[str, ArgsOverride] | None, compatible: bool
    ) -> None:
        self.mode, self.overrides, self.compatible = mode, overrides, compatible

    def ok(self, agent: ToolCall, reference: ToolCall, *, reverse: bool = False) -> bool:
        """Names equal and the matcher accepts (agent, reference), or with ``reverse``
        (reference, agent) as agentevals' subset direction does."""
        if agent.name != reference.name:
            return False
        matcher = args_matcher(
            reference.name, self.mode, self.overrides, agentevals_compatible=self.compatible
        )
        a, r = agent.args, reference.args
        if self.compatible:
            a, r = _json_args(a), _json_args(r)
        return bool(matcher(r, a) if reverse else matcher(a, r))

    def greedy(
        self, agent: Sequence[ToolCall], reference: Sequence[ToolCall], *, reverse: bool = False
    ) -> int:
        """agentevals' pass: each reference call takes the first unused agent call that fits
        (with ``reverse``, each agent call takes the first unused reference call, args read
        reference against agent); the number of calls paired."""
        first, second = (reference, agent) if reverse else (agent, reference)
        used: set[int] = set()
        for item in second:
            for i, candidate in enumerate(first):
                pair = (item, candidate) if reverse else (candidate, item)
                if i not in used and self.ok(*pair, reverse=reverse):
                    used.add(i)
                    break
        return len(used)


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


def _agentevals_pairs(
    agent: Sequence[ToolCall], reference: Sequence[ToolCall], mode: MatchMode, pairing: _Pairing
) -> tuple[int, bool]:
    """(paired calls, matched) the way agentevals 0.0.9 decides ``mode``."""
    n_a, n_r = len(agent), len(reference)
    if mode == "superset":
        pairs = pairing.greedy(agent, reference)
        return pairs, pairs == n_r
    if mode == "subset":
        pairs = pairing.greedy(agent, reference, reverse=True)
        return pairs, pairs == n_a
    forward = pairing.greedy(agent, reference)
    backward = pairing.greedy(agent, reference, reverse=True)
    return min(forward, backward), forward == n_r and backward == n_a


def match_trajectory(
    agent: Sequence[ToolCall],
    reference: Sequence[ToolCall],
    mode: MatchMode = "strict",
    args_mode: ArgsMode = "exact",
    overrides: Mapping[str, ArgsOverride] | None = None,
    *,
    agentevals_compatible: bool = False,
) -> TrajectoryMatch:
    """Match the agent's calls against the reference under ``mode`` (see module doc).

    ``agentevals_compatible`` decides the boolean as agentevals 0.0.9 does (differences
    (a)-(d) in the module doc); partial credit then counts the pairs that rule found.
    """
    if mode not in MATCH_MODES:
        raise ValueError(f"unknown trajectory match mode {mode!r}")
    if args_mode not in _MATCHERS:
        raise ValueError(f"unknown argument mode {args_mode!r}")
    n_a, n_r = len(agent), len(reference)
    pairing = _Pairing(args_mode, overrides, agentevals_compatible)
    if mode == "strict":
        pairs = sum(pairing.ok(a, r) for a, r in zip(agent, reference, strict=False))
        matched, denominator = n_a == n_r and pairs == n_a, max(n_a, n_r)
    elif agentevals_compatible:
        pairs, matched = _agentevals_pairs(agent, reference, mode, pairing)
        denominator = {"unordered": max(n_a, n_r), "subset": n_a, "superset": n_r}[mode]
    else:
        edges = [[j for j, r in enumerate(reference) if pairing.ok(a, r)] for a in agent]
        pairs = _max_matching(edges, n_r)
        if mode == "unordered":
            matched, denominator = pairs == n_a == n_r, max(n_a, n_r)
        elif mode == "subset":
            matched, denominator = pairs == n_a, n_a
        else:
            matched, denominator = pairs == n_r, n_r
    score = pairs / denominator if denominator else 1.0
    return TrajectoryMatch(
        mode=mode,
        args_mode=args_mode,
        matched=matched,
        score=score,
        matched_pairs=pairs,
        agent_calls=n_a,
        reference_calls=n_r,
    )


def calls_from_steps(steps: Sequence[TrajectoryStep]) -> list[ToolCall]:
    """ToolCalls from TrajectorySteps (errored calls included: they were attempted)."""
    return [ToolCall(name=step.tool, args=dict(step.args)) for step in steps]

"""End-state expectations of a case: ``expected_state`` and ``state_may_change``, the types
and texts of the fields. The check is :mod:`arena.scoring.checks._state`; the state a run
changed is :class:`arena.records.end_state.StateDiff` (an agent exposes its state with
``ctx.expose_state``, :class:`arena.agents.AgentContext`).
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field

RECORD_PATH_PATTERN = r"^[^/\s*?\[\]][^/]*/.+$"
"""A record's path: ``collection/record_id`` (the collection has no ``/``; the id may)."""
RecordPath = Annotated[str, Field(min_length=3, max_length=300, pattern=RECORD_PATH_PATTERN)]
StateGlob = Annotated[str, Field(min_length=1, max_length=300)]

EXPECTED_STATE = (
    "What the run must leave in the state the agent exposes (ctx.expose_state): record path "
    "collection/record_id -> the fields that must have these values at the end (a value may "
    "be a matcher; the record's other fields may not change; a record absent at the start is "
    "created with them), or null (the record must be gone). Every other record must stay "
    "unchanged unless state_may_change allows it. Each miss is a hard fail naming record and "
    "field (docs: golden)."
)
STATE_MAY_CHANGE = (
    "Globs of record paths the run may change, add or remove beyond expected_state "
    "(e.g. carts/*, logs/*)."
)


def path_matches(path: str, globs: list[str]) -> bool:
    """True when a record path matches one of the globs (``*`` any text, ``?`` one character,
    case-sensitive)."""
    return any(re.fullmatch(_glob_regex(glob), path) is not None for glob in globs)


def _glob_regex(glob: str) -> str:
    out = []
    for char in glob:
        out.append(".*" if char == "*" else "." if char == "?" else re.escape(char))
    return "".join(out)

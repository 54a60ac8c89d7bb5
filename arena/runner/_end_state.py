"""Take the start and end snapshots of the state a factory exposed, and diff them.

A bring-your-own factory lends its state with ``ctx.expose_state(snapshot)``
(:class:`arena.agents.AgentContext`). :class:`StateWatch` takes the start snapshot right after
the factory returned the agent and the end snapshot after the run (a conversation: after its
last turn, whoever ended it), and gives the result's :class:`~arena.records.end_state.StateDiff`.
A snapshot that raises or is not a mapping of records leaves the diff's ``error`` set (the
state is then unknown: a case that expects a state fails, saying why); it never fails the run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.records.end_state import Snapshot, StateDiff, diff_snapshots, snapshot_of
from arena.secrets import redact

if TYPE_CHECKING:
    from arena.agents import StateFunction
    from arena.golden import GoldenCase

_ERROR_LIMIT = 500


class StateWatch:
    """The start snapshot of one run's exposed state, then its diff with the end one."""

    def __init__(self, snapshot: StateFunction | None, case: GoldenCase) -> None:
        self._snapshot = snapshot
        self._case = case
        self._start: Snapshot | None = None
        self._error: str | None = None
        if snapshot is not None:
            self._start = self._take("start")

    def _take(self, when: str) -> Snapshot | None:
        assert self._snapshot is not None
        try:
            return snapshot_of(self._snapshot())
        except Exception as exc:  # the run stands; its state is unknown
            self._error = (
                self._error
                or redact(f"the {when} snapshot failed: {type(exc).__name__}: {exc}")[:_ERROR_LIMIT]
            )
            return None

    def finish(self) -> StateDiff | None:
        """The run's state diff (None when the factory exposed no state)."""
        if self._snapshot is None:
            return None
        end = self._take("end") if self._start is not None else None
        if self._start is None or end is None:
            return StateDiff(error=self._error)
        expected = getattr(self._case, "expected_state", None) or {}
        return diff_snapshots(self._start, end, expected)

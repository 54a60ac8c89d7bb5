"""What a result's judges found about it besides the verdict (``Verdict.details``), rendered
by each judge's mode: text lines for ``arena show``, table rows for the app.

(The checklist mode's per-item P(YES) is the built-in example; any mode may keep details.)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from arena.errors import InputError
from judges._battle import Battle
from judges._types import Seat
from judges.modes import get_mode

if TYPE_CHECKING:
    from judges.modes._base import JudgeMode


@dataclass(frozen=True)
class ResultDetails:
    """One judge's details about one result: the verdict's ``details`` and the result's seat
    in it (``A`` or ``B``), with the judge's mode to render them."""

    judge: str
    mode: str
    seat: Seat
    details: dict[str, Any]

    def lines(self) -> list[str]:
        """Text lines for ``arena show`` (:meth:`~judges.modes._base.JudgeMode.details_lines`;
        the details as JSON when the mode is no longer registered)."""
        mode = self._mode()
        if mode is None:
            return [json.dumps(self.details, sort_keys=True)]
        return mode.details_lines(self.details, self.seat)

    def rows(self) -> list[dict[str, Any]]:
        """Table rows for the app (:meth:`~judges.modes._base.JudgeMode.details_rows`; one
        row of JSON when the mode is no longer registered)."""
        mode = self._mode()
        if mode is None:
            return [{"details": json.dumps(self.details, sort_keys=True)}]
        return mode.details_rows(self.details, self.seat)

    def _mode(self) -> JudgeMode | None:
        try:
            return get_mode(self.mode)
        except InputError:  # a plugin mode uninstalled since: its details stay readable
            return None


def result_details(battles: list[Battle], result_id: int) -> list[ResultDetails]:
    """Per judge (by label), the details of the first of its battles that shows the result
    and has details (a checklist judge's grades are shared by all its battles)."""
    found: dict[str, ResultDetails] = {}
    for battle in battles:
        verdict = battle.verdict_ab
        label = battle.judge.label
        if verdict is None or not verdict.details or label in found:
            continue
        if result_id not in (battle.result_a_id, battle.result_b_id):
            continue
        seat: Seat = "A" if battle.result_a_id == result_id else "B"
        found[label] = ResultDetails(label, battle.judge.mode, seat, verdict.details)
    return list(found.values())

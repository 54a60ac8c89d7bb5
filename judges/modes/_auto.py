"""``auto``: each case judged in the mode what it has calls for, the choice kept per verdict.

A case with golden expectations (facts, forbidden text, behaviours or a reference answer) is
judged by :data:`GOLDEN_MODE`, the mode measured best on golden-decisive pairs. A case without
any (an open-ended question, e.g. answers read from files) is judged by
:data:`OPEN_ENDED_MODE`, the mode chosen *against people* on the calibration part of the
shipped human-preference set and reported on its held-out part
(``benchmarks/judge_bench.py --open-ended``; docs/judges.md, "Open-ended answers"). Each
verdict's ``details`` say which mode judged it and why (``{"mode": ..., "chosen_for":
"golden items" | "open-ended"}``).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage

from judges._orders import Outcome, probability_rule
from judges._types import PairRequest, Seat, Verdict
from judges.modes._base import Asker, JudgeMode, Reading
from judges.modes._registry import judge_mode
from judges.modes.checklist._items import case_checklist
from judges.modes.checklist._mode import CONTENT_KINDS

if TYPE_CHECKING:
    from arena.golden import GoldenCase

#: The mode for cases with golden expectations (decisive-pair accuracy, docs/judges-checklist.md).
GOLDEN_MODE = "checklist"
#: The mode for open-ended cases, chosen by agreement with people (ties count as
#: disagreements) on the shipped set's calibration part, then reported on its held-out part
#: (``benchmarks/judge_bench.py --open-ended``; docs/judges.md, "Which mode judges them"):
#: ``blend`` with the weight on ``checklist`` alone, i.e. the checklist made to choose.
#: Measured 2026-12-02 on the local 1.5B model: 59% of the 59 calibration pairs (kappa 0.19;
#: the next candidates 54%, grades as it decides 51%), 60% of the 40 held-out pairs (kappa
#: 0.21; grades 38%, "the longer answer" 48%).
OPEN_ENDED_MODE = "blend"
GOLDEN_KINDS = CONTENT_KINDS | {"reference"}


def has_golden_items(case: GoldenCase) -> bool:
    """Whether the case says what a good answer holds (facts, forbidden text, behaviours or
    a reference answer): the checklist then has items of its own to ask."""
    return any(item.kind in GOLDEN_KINDS for item in case_checklist(case, with_trajectory=False))


def mode_for_case(case: GoldenCase) -> str:
    """The mode ``auto`` judges this case in: :data:`GOLDEN_MODE` or :data:`OPEN_ENDED_MODE`."""
    return GOLDEN_MODE if has_golden_items(case) else OPEN_ENDED_MODE


@judge_mode(
    "auto",
    "checklist where the case has golden items, else the mode measured best against "
    "people on open-ended answers; the choice is kept per verdict",
    order=70,
)
class AutoMode(JudgeMode):
    """Delegates each request to the mode its case calls for; both are probability modes
    without a position, so the two orders combine by the probability rule."""

    needs_logprobs = True
    positional = False

    def __init__(self) -> None:
        from judges.modes import get_mode

        # One instance per delegate, so their per-answer grades are shared across battles.
        self._modes = {name: get_mode(name) for name in (GOLDEN_MODE, OPEN_ENDED_MODE)}

    def templates(self) -> dict[str, str]:
        """Both delegates' templates: either may judge a case."""
        return {
            name: text for mode in self._modes.values() for name, text in mode.templates().items()
        }

    def prepare(self, case: GoldenCase, *, with_trajectory: bool) -> dict[str, Any]:
        """``{"mode": NAME, "chosen_for": WHY, "inputs": {...}}``: the delegate and what it
        prepared from the case."""
        name = mode_for_case(case)
        inputs = self._modes[name].prepare(case, with_trajectory=with_trajectory)
        why = "golden items" if name == GOLDEN_MODE else "open-ended"
        return {"mode": name, "chosen_for": why, "inputs": inputs}

    def _delegate(self, request: PairRequest) -> tuple[str, str, JudgeMode, PairRequest]:
        name = request.mode_inputs.get("mode")
        if name not in self._modes:  # a request built without prepare(): what it shows
            golden = bool(request.expectations or request.reference)
            name = GOLDEN_MODE if golden else OPEN_ENDED_MODE
        why = request.mode_inputs.get("chosen_for") or (
            "golden items" if name == GOLDEN_MODE else "open-ended"
        )
        inner = request.model_copy(update={"mode_inputs": request.mode_inputs.get("inputs", {})})
        return name, why, self._modes[name], inner

    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        _, _, mode, inner = self._delegate(request)
        return mode.conversations(inner)

    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        name, why, mode, inner = self._delegate(request)
        reading = await mode.read(asker, inner)
        details = {**reading.details, "mode": name, "chosen_for": why}
        return dataclasses.replace(reading, details=details)

    def combine(self, ab: Verdict, ba: Verdict, tie_margin: float | None = None) -> Outcome:
        """The rule of the mode that judged the pair (one that must choose, ``rules``, ignores the
        margin); the probability rule for verdicts that do not say."""
        name = (ab.details or {}).get("mode")
        if name in self._modes:
            return self._modes[name].combine(ab, ba, tie_margin)
        return probability_rule(ab, ba, ab.judge.combine, tie_margin)

    def details_lines(self, details: dict[str, Any], seat: Seat) -> list[str]:
        """The delegate's lines, after one naming the mode chosen and why."""
        name = details.get("mode")
        if name not in self._modes:
            return []
        head = f"judged by {name} ({details.get('chosen_for', '')})"
        return [head, *self._modes[name].details_lines(details, seat)]

    def details_rows(self, details: dict[str, Any], seat: Seat) -> list[dict[str, Any]]:
        """The delegate's rows."""
        name = details.get("mode")
        return self._modes[name].details_rows(details, seat) if name in self._modes else []

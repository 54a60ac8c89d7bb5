"""A cascade of selective judges (Trust or Escalate's cascaded selective evaluation): an
ordered list of judges, e.g. the local model, then a stronger hosted endpoint; a pair goes to
the next judge only when every judge before it abstained; people get only what every judge
abstained on.

Each judge is calibrated on its own labelled verdicts, restricted to the labelled pairs that
reach it (those no earlier judge gives), against the same target, at ``error / k`` for ``k``
judges. Why the guarantee covers the cascade as a whole: the verdicts the cascade gives are
the union of what each judge gives on the pairs that reach it; if each judge's given verdicts
agree at least ``target`` of the time, so does their union (a mixture of rates each at least
``target``); each judge's guarantee fails with probability at most ``error / k``, so all hold
together with probability at least ``1 - error`` (Bonferroni: valid whatever the dependence
between the judges). Which pairs reach a later judge depends on the earlier thresholds, chosen
on the same labelled pairs, as in Trust or Escalate.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, computed_field

from arena.trust._label_pairs import PairId, one_per_pair
from arena.trust._selective import (
    Labelled,
    SelectiveCalibration,
    battle_pair,
    calibrate,
    verdict_score,
)
from judges._battle import Battle
from judges._types import SelectiveSettings


class CascadeStage(BaseModel):
    """One judge of a cascade: its calibration on the labelled pairs that reach it (None
    without any), and how many of the cascade's pairs reach it and it gives."""

    judge: str
    calibration: SelectiveCalibration | None
    reached: int
    given: int


class CascadeHealth(BaseModel):
    """A cascade on a run's pairs: each judge's stage, and what is left for people."""

    target: float
    error: float
    stages: list[CascadeStage]
    pairs: int
    to_people: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> str:
        """:meth:`text`, stored with the figures (the app shows it as is)."""
        return self.text()

    def text(self) -> str:
        """One line: who gives how many pairs, what people get, and the guarantee."""
        shares = "; ".join(f"{s.judge} gives {s.given} of {s.reached}" for s in self.stages)
        per = self.error / max(len(self.stages), 1)
        backed = ", ".join(
            f"{s.judge} {s.calibration.calibration_pairs if s.calibration else 0}"
            for s in self.stages
        )
        return (
            f"cascade of {len(self.stages)} judges on {self.pairs} pairs: {shares}; people get "
            f"{self.to_people}. Agreement with the labels >= {self.target:.0%} with probability "
            f">= {1 - self.error:.0%} on the verdicts the cascade gives (each judge calibrated "
            f"at error level {per:.3g} on the labelled pairs reaching it: {backed})"
        )


def calibrate_cascade(
    labelled: Sequence[Sequence[Labelled]],
    settings: SelectiveSettings | None = None,
    *,
    judges: int | None = None,
) -> list[SelectiveCalibration | None]:
    """Each judge's calibration, in cascade order (module docstring): ``labelled[k]`` is judge
    k's labelled verdicts; judge k calibrates on those of its pairs no earlier judge gives,
    at ``error / judges`` (``judges``: the cascade's length, default ``len(labelled)``; give
    it to calibrate the first judges of a longer cascade)."""
    settings = settings or SelectiveSettings()
    split = max(judges or len(labelled), 1)
    share = settings.model_copy(update={"error": settings.error / split})
    given_earlier: set[PairId] = set()
    found: list[SelectiveCalibration | None] = []
    for labels in labelled:
        reaching = [x for x in one_per_pair(labels) if x.pair not in given_earlier]
        calibration = calibrate(reaching, share, estimate_needed=False)
        found.append(calibration)
        if calibration is not None:
            given_earlier |= {
                x.pair for x in reaching if x.pair is not None and calibration.gives_label(x)
            }
    return found


def _gives(battle: Battle, calibration: SelectiveCalibration | None) -> bool:
    score = verdict_score(battle)
    return (
        calibration is not None
        and score is not None
        and calibration.gives_verdict(battle.winner, score)
    )


def route(
    battles: Sequence[Sequence[Battle]], calibrations: Sequence[SelectiveCalibration | None]
) -> dict[PairId, int | None]:
    """Every pair any judge judged -> the index of the judge that gives it (the first that
    does), or None: every judge abstained (or could not read its verdict), so people decide
    it. Pairs decided by rule (a crashed answer, identical answers) are left out."""
    routed: dict[PairId, int | None] = {}
    for stage, (own, calibration) in enumerate(zip(battles, calibrations, strict=True)):
        for battle in own:
            if battle.verdict_ab is None or battle.verdict_ba is None:
                continue  # decided by rule (a crash, identical answers): nobody's to give
            pair = battle_pair(battle)
            if routed.get(pair) is None and _gives(battle, calibration):
                routed[pair] = stage
            routed.setdefault(pair, None)
    return routed


def cascade_health(
    judges: Sequence[str],
    battles: Sequence[Sequence[Battle]],
    labelled: Sequence[Sequence[Labelled]],
    settings: SelectiveSettings | None = None,
) -> CascadeHealth:
    """Calibrate a cascade of judges (their labels, in order) and count, over the pairs they
    judged, what each gives and what is left for people."""
    settings = settings or SelectiveSettings()
    calibrations = calibrate_cascade(labelled, settings)
    routed = route(battles, calibrations)
    stages, reaching = [], len(routed)
    for stage, (judge, calibration) in enumerate(zip(judges, calibrations, strict=True)):
        given = sum(1 for found in routed.values() if found == stage)
        stages.append(
            CascadeStage(judge=judge, calibration=calibration, reached=reaching, given=given)
        )
        reaching -= given
    return CascadeHealth(
        target=settings.target,
        error=settings.error,
        stages=stages,
        pairs=len(routed),
        to_people=sum(1 for found in routed.values() if found is None),
    )

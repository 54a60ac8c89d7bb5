"""Selective verdicts on a stored run: calibrate a judge on the labelled pairs the run has
(golden-decisive pairs, people's votes, plus any labelled set given), store each battle's
confidence and abstention, and say what the guarantee rests on.

A judge spec with ``selective`` set abstains (``arena judge`` stores it, see
:mod:`arena.battles._selective_store`); without it, ``arena health`` still reports what the
default target would give, marked not configured.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, computed_field

from arena.battles._accuracy import GoldenMark
from arena.battles._battle import Battle, judge_battles
from arena.battles._selective import (
    NOT_CALIBRATED,
    Labelled,
    SelectiveCalibration,
    VoteRow,
    calibrate,
    golden_labelled,
    verdict_score,
    vote_labelled,
)
from judges._types import JudgeSpec, SelectiveSettings


class SelectiveHealth(BaseModel):
    """A judge's selective verdicts on one run's dataset: the calibration (None without
    labelled pairs), how many scored battles it would give, and whether the spec asks for
    abstention (``configured``)."""

    dataset: str
    configured: bool
    target: float
    error: float
    calibration: SelectiveCalibration | None
    scored: int
    given: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def coverage(self) -> float | None:
        """Share of the scored battles given (None without calibration or battles)."""
        if self.calibration is None or not self.scored:
            return None
        return self.given / self.scored

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> str:
        """:meth:`text`, stored with the figures (the app shows it as is)."""
        return self.text()

    def text(self) -> str:
        """One line: coverage and the guarantee with what backs it, or not calibrated."""
        if self.calibration is None:
            return f"{NOT_CALIBRATED} (dataset {self.dataset})"
        use = "" if self.configured else " (not configured: what the default target gives)"
        cover = "-" if self.coverage is None else f"{self.coverage:.0%}"
        return (
            f"coverage {cover} of {self.scored} battles on dataset {self.dataset}: "
            f"{self.calibration.text()}{use}"
        )


def run_labelled(
    battles: Sequence[Battle],
    marks: Mapping[int, GoldenMark],
    votes: Sequence[VoteRow],
    extra: Sequence[Labelled] = (),
) -> list[Labelled]:
    """Every labelled verdict of a judge's battles on a run: golden-decisive pairs, people's
    votes on the same pairs, then ``extra`` (e.g. a shipped human-preference set)."""
    own = judge_battles(list(battles))
    return [*golden_labelled(own, marks), *vote_labelled(own, votes), *extra]


def selective_health(
    battles: Sequence[Battle],
    labelled: Sequence[Labelled],
    spec: JudgeSpec,
    dataset: str,
) -> SelectiveHealth:
    """Calibrate the judge at its spec's settings (default target and error level when the
    spec sets none) and count what it gives; battles are not changed."""
    settings = spec.selective or SelectiveSettings()
    calibration = calibrate(labelled, settings)
    scores = [s for s in (verdict_score(b) for b in battles) if s is not None]
    given = 0 if calibration is None else sum(calibration.gives(s) for s in scores)
    return SelectiveHealth(
        dataset=dataset,
        configured=spec.selective is not None,
        target=settings.target,
        error=settings.error,
        calibration=calibration,
        scored=len(scores),
        given=given,
    )

"""Selective verdicts on a stored run: calibrate a judge on the labelled pairs the run has
(golden-decisive pairs, people's votes, plus any labelled set given), store each battle's
confidence and abstention, and say what the guarantee rests on.

A judge spec with ``selective`` set abstains (``arena judge`` stores it, see
:mod:`arena.trust._selective_store`); without it, ``arena health`` still reports what the
default target would give, marked as not applied (:data:`NOT_APPLIED`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from pydantic import BaseModel, computed_field

from arena.trust._accuracy import GoldenMark, golden_winner
from arena.trust._label_pairs import one_per_pair
from arena.trust._selective import (
    GOLDEN,
    NOT_CALIBRATED,
    VOTES,
    Labelled,
    SelectiveCalibration,
    battle_pair,
    calibrate,
    judged_side,
    label_verdict,
    verdict_score,
)
from arena.vocabulary import swap_winner
from judges._battle import Battle, judge_battles
from judges._types import JudgeSpec, SelectiveSettings

NOT_APPLIED = (
    "a what-if, not applied: this judge gives every verdict; "
    "`selective` in its judge YAML makes it abstain like this"
)
"""What follows the figures of a judge whose spec sets no ``selective``: they say what it
would give at the default target (docs/judges.md, "Selective verdicts")."""


class VoteRow(Protocol):
    """What a person's vote says (:class:`arena.trust.Vote` has it)."""

    @property
    def question_id(self) -> str: ...
    @property
    def repeat(self) -> int: ...
    @property
    def model_a(self) -> str: ...
    @property
    def model_b(self) -> str: ...
    @property
    def winner(self) -> str: ...


def golden_labelled(battles: Iterable[Battle], marks: Mapping[int, GoldenMark]) -> list[Labelled]:
    """The judge's golden-decisive pairs as labelled verdicts (source ``golden``)."""
    found = []
    for battle in battles:
        a, b = marks.get(battle.result_a_id), marks.get(battle.result_b_id)
        truth = None if a is None or b is None else golden_winner(a, b)
        item = None if truth is None else label_verdict(battle, judged_side(battle), truth, GOLDEN)
        if item is not None:
            found.append(item)
    return found


def vote_labelled(battles: Iterable[Battle], votes: Iterable[VoteRow]) -> list[Labelled]:
    """The judge's battles that people voted on, one labelled verdict per non-tied vote
    (source ``votes``; :func:`calibrate` counts them once per pair, by majority)."""
    by_pair: dict[tuple[str, int, str, str], list[str]] = {}
    for vote in votes:
        by_pair.setdefault((vote.question_id, vote.repeat, vote.model_a, vote.model_b), []).append(
            vote.winner
        )
    found = []
    for battle in battles:
        key = (battle.case_id, battle.repeat, battle.variant_a, battle.variant_b)
        swapped = (battle.case_id, battle.repeat, battle.variant_b, battle.variant_a)
        labels = by_pair.get(key, []) + [swap_winner(w) for w in by_pair.get(swapped, [])]
        for label in labels:
            item = label_verdict(battle, judged_side(battle), label, VOTES)
            if item is not None:
                found.append(item)
    return found


class SelectiveHealth(BaseModel):
    """A judge's selective verdicts on one run's dataset: the calibration (None without
    labelled pairs), how many scored battles it would give, the same over the run's
    decisive-like pairs (those a label, golden or votes, names a winner for: the pairs the
    guarantee is about), and whether the spec asks for abstention (``configured``)."""

    dataset: str
    configured: bool
    target: float
    error: float
    calibration: SelectiveCalibration | None
    scored: int
    given: int
    decisive: int = 0
    decisive_given: int = 0

    @computed_field  # type: ignore[prop-decorator]
    @property
    def coverage(self) -> float | None:
        """Share of the decisive-like pairs given (None without calibration or such pairs)."""
        if self.calibration is None or not self.decisive:
            return None
        return self.decisive_given / self.decisive

    @computed_field  # type: ignore[prop-decorator]
    @property
    def coverage_all(self) -> float | None:
        """Share of all scored battles given (None without calibration or battles)."""
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
        use = "" if self.configured else f" ({NOT_APPLIED})"
        cover = "-" if self.coverage is None else f"{self.coverage:.0%}"
        every = "-" if self.coverage_all is None else f"{self.coverage_all:.0%}"
        return (
            f"coverage {cover} of {self.decisive} decisive pairs ({every} of all "
            f"{self.scored} battles) on dataset {self.dataset}: "
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
    labelled_pairs = {x.pair for x in one_per_pair(labelled) if x.pair is not None}
    scored = [(b, s) for b in battles if (s := verdict_score(b)) is not None]
    decisive = [(b, s) for b, s in scored if battle_pair(b) in labelled_pairs]

    def given(found: list[tuple[Battle, float]]) -> int:
        return (
            0
            if calibration is None
            else sum(calibration.gives_verdict(b.winner, s) for b, s in found)
        )

    return SelectiveHealth(
        dataset=dataset,
        configured=spec.selective is not None,
        target=settings.target,
        error=settings.error,
        calibration=calibration,
        scored=len(scored),
        given=given(scored),
        decisive=len(decisive),
        decisive_given=given(decisive),
    )

"""Selective verdicts: a confidence for every judged battle, a threshold with a guarantee, and
abstention below it.

A battle's **score** (0 to 1) is read from what the judge's mode gives: ``|2 P(A better) - 1|``
for the modes that read probabilities (log-probabilities, grade gaps, checklist scores,
order-averaged), halved when the two orders point opposite ways; for text verdicts, 1 when
both orders agree strongly, 0.75 when they agree, 0 otherwise; a tie scores 0 (a tie never
agrees with a non-tied label). Calibration (:func:`calibrate`) takes generic labelled
verdicts (:class:`Labelled`: a score, whether the judge's winner is the label's, and the
label's source, and the pair it is about) from any source: golden-decisive pairs of the run,
people's votes in the app, a shipped human-preference set. It keeps one label per pair
(:mod:`arena.trust._label_pairs`); from :data:`HOLD_OUT_FROM` pairs on it holds whole cases
out (a fifth of the pairs, reported as held-out agreement and coverage); below that every pair
calibrates and the guarantee's own bound is reported. It fits a Platt map from score to
confidence and picks the threshold by the fixed-sequence test of
:mod:`arena.trust._guarantee`.

MT-Bench's human judgments are kept for independent checking: a label source naming MT-Bench
is refused (:func:`check_source`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from arena.errors import InputError
from arena.trust._guarantee import fixed_sequence_threshold, platt, platt_fit
from arena.trust._label_pairs import PairId, one_per_pair, split_by_case
from arena.trust._power import pairs_needed
from arena.vocabulary import DECISIVE, ERROR, MODEL_A, MODEL_B, is_tie
from judges._battle import Battle
from judges._types import SelectiveSettings

#: Share of the pairs kept out of calibration and reported on, from HOLD_OUT_FROM pairs on.
HELD_OUT_SHARE = 0.2
#: Fewer labelled pairs than this: all calibrate (a hold-out would cost the guarantee power).
HOLD_OUT_FROM = 200
#: Label sources never used for calibration (kept for independent checking).
FORBIDDEN_SOURCES = ("mt-bench", "mt_bench", "mtbench", "mt bench")
GOLDEN, VOTES = "golden", "votes"
NOT_CALIBRATED = "not calibrated: no labelled pairs"


def check_source(source: str) -> str:
    """``source`` unless it names MT-Bench's human judgments (InputError, field ``source``)."""
    if any(name in source.lower() for name in FORBIDDEN_SOURCES):
        raise InputError(
            f"label source {source!r}: MT-Bench's human judgments are kept for independent "
            "checking and never used to calibrate a judge",
            field="source",
        )
    return source


@dataclass(frozen=True)
class Labelled:
    """One judged pair with a person's (or the golden checks') non-tied label: the verdict's
    score, whether the judge's winner is the label's, where the label comes from, and which
    pair it is about (``pair`` None: unknown, and all such labels count as one pair)."""

    score: float
    agrees: bool
    source: str
    pair: PairId | None = None
    tie: bool = False
    """The judge's verdict is a tie (labelled by the side it leans to): never given."""

    def __post_init__(self) -> None:
        check_source(self.source)
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"a verdict score is in [0, 1], got {self.score}")


def verdict_score(battle: Battle) -> float | None:
    """The battle's score in [0, 1] (module docstring); None for crash battles, unreadable
    verdicts, people's votes and identical answers (no judge opinion to score)."""
    if battle.by_rule or battle.winner == ERROR or battle.judge.is_human:
        return None
    ab, ba = battle.verdict_ab, battle.verdict_ba
    if ab is None or ba is None:
        return None
    if battle.p_a is not None:  # the tie margin changes neither the score nor the side
        return abs(2 * battle.p_a - 1) * (0.5 if battle.flip else 1.0)
    if is_tie(battle.winner):
        return 0.0
    if battle.flip:
        return 0.0
    return 1.0 if battle.strong else 0.75


def battle_pair(battle: Battle) -> PairId:
    """The pair a battle judged (its run, case, repeat and two variants)."""
    return PairId.of(
        battle.run_id, battle.case_id, battle.repeat, battle.variant_a, battle.variant_b
    )


def judged_side(battle: Battle) -> str:
    """The winner the judge's verdict points to: its decisive winner, or for a probability
    judge's tie the side P(A better) leans to (so that calibration does not depend on the tie
    margin, which is fitted on the same golden labels)."""
    if is_tie(battle.winner) and battle.p_a is not None and battle.p_a != 0.5:
        return MODEL_A if battle.p_a > 0.5 else MODEL_B
    return battle.winner


def label_verdict(
    battle: Battle | float, said: str, label: str, source: str, pair: PairId | None = None
) -> Labelled | None:
    """A labelled verdict from a battle (or its score) whose winner is ``said`` and a label
    winner ``label`` (both from A's side); None for tied or unreadable labels and unscored
    battles. The generic entry point for any labelled set (golden, votes, shipped); a battle
    gives its own pair, a score the ``pair`` given."""
    score = verdict_score(battle) if isinstance(battle, Battle) else float(battle)
    if score is None or label not in DECISIVE or said == ERROR:
        return None
    if isinstance(battle, Battle):
        pair = battle_pair(battle)
    tie = isinstance(battle, Battle) and is_tie(battle.winner)
    return Labelled(score=score, agrees=said == label, source=source, pair=pair, tie=tie)


class SelectiveCalibration(BaseModel):
    """A calibrated selective judge: the Platt map, the threshold and what backs it."""

    target: float
    error: float
    sources: dict[str, int]
    labels: int = 0
    calibration_pairs: int
    held_out_pairs: int
    intercept: float
    slope: float
    threshold_score: float | None
    threshold: float | None
    calibration_given: int
    calibration_agreement_bound: float | None
    held_out_given: int
    held_out_agreed: int
    runs: list[int] = []
    """The runs the calibration pairs come from (labels pooled over several runs)."""
    pairs_needed: int | None = None
    """Without a threshold: how many labelled pairs in all would likely give a first verdict
    (:func:`arena.trust._power.pairs_needed`; None: far more than there are)."""

    def confidence(self, score: float) -> float:
        """The calibrated confidence of a verdict score."""
        return platt(score, self.intercept, self.slope)

    def gives(self, score: float) -> bool:
        """True when a verdict of this score is given (at or above the threshold)."""
        return self.threshold_score is not None and score >= self.threshold_score - 1e-12

    def gives_label(self, item: Labelled) -> bool:
        """True when the labelled verdict would be given (:meth:`gives_verdict`)."""
        return not item.tie and self.gives(item.score)

    def gives_verdict(self, winner: str, score: float) -> bool:
        """True when a battle with this winner and score is given: a tie never is (the
        guarantee is about the side a verdict points to; people decide a tie)."""
        return not is_tie(winner) and self.gives(score)

    def needed_text(self) -> str:
        """How many more labelled pairs would likely give a first verdict."""
        have = self.calibration_pairs + self.held_out_pairs
        if self.pairs_needed is None:
            return f"more than {max(have, 1) * 8} labelled pairs would likely be needed"
        return (
            f"about {self.pairs_needed} labelled pairs ({self.pairs_needed - have} more) "
            "would likely give a first verdict"
        )

    def source_text(self) -> str:
        """``golden 30, votes 10``."""
        return ", ".join(f"{name} {count}" for name, count in sorted(self.sources.items()))

    def labellers(self) -> str:
        """Who the guarantee is about: the golden checks, people, or both."""
        if set(self.sources) == {GOLDEN}:
            return "the golden checks"
        return "people" if GOLDEN not in self.sources else "the labels (golden checks, people)"

    def text(self) -> str:
        """How the guarantee reads, with what backs it."""
        on = f"calibrated on {self.calibration_pairs} labelled pairs ({self.source_text()})"
        if len(self.runs) > 1:
            on += f" pooled over runs {', '.join(map(str, self.runs))}"
        if self.labels > self.calibration_pairs + self.held_out_pairs:
            on += f" from {self.labels} labels"
        if self.threshold is not None and not self.held_out_pairs:
            on += (
                f"; bound {self.calibration_agreement_bound:.0%} on the "
                f"{self.calibration_given} calibration verdicts given"
            )
        held = (
            f"; held out {self.held_out_pairs}: {self.held_out_given} given, "
            f"{self.held_out_agreed} agreed"
            if self.held_out_pairs
            else ""
        )
        if self.threshold is None:
            return (
                f"no threshold guarantees {self.target:.0%} agreement at error level "
                f"{self.error:g} ({on}): the judge abstains on every battle{held}; "
                f"{self.needed_text()}"
            )
        return (
            f"agreement with {self.labellers()} >= {self.target:.0%} with probability "
            f">= {1 - self.error:.0%} on the verdicts given (confidence >= "
            f"{self.threshold:.2f}; {on}){held}"
        )


def calibrate(
    labelled: Sequence[Labelled],
    settings: SelectiveSettings | None = None,
    *,
    seed: int = 0,
    estimate_needed: bool = True,
) -> SelectiveCalibration | None:
    """Calibrate a selective judge on labelled verdicts; None without any.

    Without a threshold, the pairs a first verdict would likely need are estimated by
    simulation (``estimate_needed=False`` skips it, e.g. inside a simulation).

    One label per pair is kept; from :data:`HOLD_OUT_FROM` pairs on, a seeded fifth of them
    (whole cases) is held out; the Platt map and the threshold are fitted on the rest.
    """
    settings = settings or SelectiveSettings()
    pairs = one_per_pair(labelled)
    if not pairs:
        return None
    used, held_out = pairs, list[Labelled]()
    if len(pairs) >= HOLD_OUT_FROM:
        used, held_out = split_by_case(pairs, HELD_OUT_SHARE, seed)
    scores = [x.score for x in used]
    agrees = [x.agrees for x in used]
    intercept, slope = platt_fit(scores, agrees)
    choice = fixed_sequence_threshold(scores, agrees, settings.target, settings.error)
    cut = choice.threshold
    given = [x for x in held_out if cut is not None and x.score >= cut - 1e-12]
    return SelectiveCalibration(
        target=settings.target,
        error=settings.error,
        sources=dict(Counter(x.source for x in used)),
        labels=len(labelled),
        runs=sorted({x.pair.run for x in used if x.pair is not None and x.pair.run is not None}),
        calibration_pairs=len(used),
        held_out_pairs=len(held_out),
        intercept=intercept,
        slope=slope,
        threshold_score=cut,
        threshold=None if cut is None else platt(cut, intercept, slope),
        calibration_given=choice.given,
        calibration_agreement_bound=None if cut is None else choice.lower_agreement,
        held_out_given=len(given),
        held_out_agreed=sum(x.agrees for x in given),
        pairs_needed=None
        if cut is not None or not estimate_needed
        else pairs_needed(scores, agrees, settings.target, settings.error),
    )


def apply_selective(battles: Iterable[Battle], calibration: SelectiveCalibration) -> list[Battle]:
    """Set every scored battle's confidence, and abstain on those below the threshold and on
    ties (in place); returns the battles whose fields changed."""
    changed = []
    for battle in battles:
        score = verdict_score(battle)
        before = (battle.confidence, battle.abstained)
        if score is None:
            battle.confidence, battle.abstained = None, False
        else:
            battle.confidence = calibration.confidence(score)
            battle.abstained = not calibration.gives_verdict(battle.winner, score)
        if before != (battle.confidence, battle.abstained):
            changed.append(battle)
    return changed

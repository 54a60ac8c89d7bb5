"""Selective verdicts stored on a run's battles: each battle's confidence and abstention,
for a judge whose spec asks for them (``arena judge`` calls it once the run's tie margin is
calibrated, so confidence follows the final outcomes), calibrated on labels pooled over every
run of the same judge spec on the same dataset (:func:`pooled_labelled`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.trust._selective import Labelled, apply_selective, verdict_score
from arena.trust._selective_run import SelectiveHealth, run_labelled, selective_health
from judges._battle import Battle
from judges._types import JudgeSpec

if TYPE_CHECKING:
    from arena.storage import Store


def stored_labelled(store: Store, run_id: int, judge_key: str) -> list[Labelled]:
    """A judge's labelled verdicts on one stored run: golden-decisive pairs and the votes cast
    in the app."""
    from arena.evaluation.run_scores import load_run_scores
    from arena.trust._accuracy import golden_marks
    from arena.trust._vote_files import battle_votes

    battles = store.battles(run_id, judge_key)
    if not battles:
        return []
    marks = golden_marks(load_run_scores(store, run_id).cases)
    people = [b for b in store.battles(run_id) if b.judge.is_human]
    return run_labelled(battles, marks, battle_votes(people))


def pooled_labelled(
    store: Store, run_id: int, judge_key: str, own: list[Labelled]
) -> list[Labelled]:
    """``own`` (the run's labelled verdicts) and those of every other run of the same judge
    spec on the same dataset: :func:`arena.trust.calibrate` keeps one label per pair, the
    newest run's, so a rerun of the same pairs adds none."""
    dataset = store.run(run_id).dataset
    others = [r.id for r in store.runs() if r.dataset == dataset and r.id != run_id]
    return [*own, *(x for other in others for x in stored_labelled(store, other, judge_key))]


def select_run(
    store: Store, run_id: int, spec: JudgeSpec, battles: list[Battle] | None = None
) -> SelectiveHealth | None:
    """Store each battle's confidence and abstention for a judge whose spec asks for selective
    verdicts (None otherwise): calibrated on the run's golden-decisive pairs and the votes in
    the app, pooled with the same judge's other runs on the dataset. Without labelled pairs
    the judge abstains on nothing it cannot score and on every battle it can (nothing backs a
    verdict)."""
    from arena.evaluation.run_scores import load_run_scores
    from arena.trust._accuracy import golden_marks
    from arena.trust._vote_files import battle_votes

    if spec.selective is None:
        return None
    battles = store.battles(run_id, spec.key) if battles is None else battles
    marks = golden_marks(load_run_scores(store, run_id).cases) if battles else {}
    people = [b for b in store.battles(run_id) if b.judge.is_human]
    own = run_labelled(battles, marks, battle_votes(people))
    labelled = pooled_labelled(store, run_id, spec.key, own)
    health = selective_health(battles, labelled, spec, store.run(run_id).dataset)
    calibration = health.calibration
    for battle in battles:
        if calibration is None:
            score = verdict_score(battle)
            changed = battle.abstained != (score is not None) or battle.confidence is not None
            battle.confidence, battle.abstained = None, score is not None
        else:
            changed = bool(apply_selective([battle], calibration))
        if changed:
            battle.id = store.save_battle(battle)
    return health

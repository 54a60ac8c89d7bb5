"""Selective verdicts stored on a run's battles: each battle's confidence and abstention,
for a judge whose spec asks for them (``arena judge`` calls it once the run's tie margin is
calibrated, so confidence follows the final outcomes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.battles._battle import Battle
from arena.battles._selective import apply_selective, verdict_score
from arena.battles._selective_run import SelectiveHealth, run_labelled, selective_health
from judges._types import JudgeSpec

if TYPE_CHECKING:
    from arena.storage import Store


def select_run(
    store: Store, run_id: int, spec: JudgeSpec, battles: list[Battle] | None = None
) -> SelectiveHealth | None:
    """Store each battle's confidence and abstention for a judge whose spec asks for selective
    verdicts (None otherwise): calibrated on the run's golden-decisive pairs and the votes in
    the app. Without labelled pairs the judge abstains on nothing it cannot score and on every
    battle it can (nothing backs a verdict)."""
    from arena.battles._accuracy import golden_marks
    from arena.battles.votes.reading import battle_votes
    from arena.evaluation.run_scores import load_run_scores

    if spec.selective is None:
        return None
    battles = store.battles(run_id, spec.key) if battles is None else battles
    marks = golden_marks(load_run_scores(store, run_id).cases) if battles else {}
    people = [b for b in store.battles(run_id) if b.judge.is_human]
    labelled = run_labelled(battles, marks, battle_votes(people))
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

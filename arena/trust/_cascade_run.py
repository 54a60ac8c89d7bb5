"""A cascade on a stored run: a selective judge whose spec names judges to escalate to
(``selective.escalate_to``) hands the pairs it abstained on to the next judge, which judges
only those; each judge's battles then store the cascade's confidence and abstention (a battle
is given only when its judge is the one the cascade gives the pair to). See
:mod:`arena.trust._cascade` for the calibration and its guarantee."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from arena.trust._cascade import CascadeHealth, calibrate_cascade, cascade_health, route
from arena.trust._label_pairs import PairId
from arena.trust._selective import SelectiveCalibration, battle_pair, verdict_score
from arena.trust._selective_store import pooled_labelled, stored_labelled
from judges._battle import Battle
from judges._types import JudgeSpec, SelectiveSettings

if TYPE_CHECKING:
    from arena.storage import Store


def cascade_specs(spec: JudgeSpec) -> list[JudgeSpec]:
    """The judge and those it escalates to, in order (InputError for a bad judge entry)."""
    from judges import parse_judge

    if spec.selective is None:
        return [spec]
    return [spec, *(parse_judge(text) for text in spec.selective.escalate_to)]


def _labels(store: Store, run_id: int, specs: list[JudgeSpec]) -> list[list[Any]]:
    return [
        pooled_labelled(store, run_id, s.key, stored_labelled(store, run_id, s.key)) for s in specs
    ]


def _store_stage(
    store: Store,
    battles: list[Battle],
    stage: int,
    calibration: SelectiveCalibration | None,
    routed: dict[PairId, int | None],
) -> None:
    """Each battle's confidence, and abstained unless the cascade gives its pair to ``stage``."""
    for battle in battles:
        score = verdict_score(battle)
        before = (battle.confidence, battle.abstained)
        if score is None:
            battle.confidence, battle.abstained = None, False
        else:
            battle.confidence = None if calibration is None else calibration.confidence(score)
            battle.abstained = routed.get(battle_pair(battle)) != stage
        if before != (battle.confidence, battle.abstained):
            battle.id = store.save_battle(battle)


#: Judges a run's given pairs with a judge spec (``arena.battles.judge_run_async``).
JudgePairs = Callable[[JudgeSpec, set[PairId]], Awaitable[Any]]


async def escalate_run(
    store: Store, run_id: int, spec: JudgeSpec, judge_pairs: JudgePairs
) -> CascadeHealth | None:
    """Judge what ``spec`` abstained on with the judges it escalates to, one after another
    (each judges only the pairs every judge before it abstained on, through
    ``judge_pairs``), then store the cascade's abstention on every judge's battles; None
    without ``escalate_to``."""
    if spec.selective is None or not spec.selective.escalate_to:
        return None
    specs = cascade_specs(spec)
    for stage in range(1, len(specs)):
        battles = [store.battles(run_id, s.key) for s in specs[:stage]]
        labels = _labels(store, run_id, specs[:stage])
        routed = route(battles, calibrate_cascade(labels, spec.selective, judges=len(specs)))
        waiting = {pair for pair, given in routed.items() if given is None}
        await judge_pairs(specs[stage], waiting)
    return store_cascade(store, run_id, spec)


def store_cascade(store: Store, run_id: int, spec: JudgeSpec) -> CascadeHealth:
    """Calibrate the cascade of ``spec`` on the run (pooled labels) and store each battle's
    confidence and abstention by it."""
    specs = cascade_specs(spec)
    settings = spec.selective or SelectiveSettings()
    battles = [store.battles(run_id, s.key) for s in specs]
    labels = _labels(store, run_id, specs)
    calibrations = calibrate_cascade(labels, settings)
    routed = route(battles, calibrations)
    for stage, (own, calibration) in enumerate(zip(battles, calibrations, strict=True)):
        _store_stage(store, own, stage, calibration, routed)
    return cascade_health([s.label for s in specs], battles, labels, settings)


def run_cascade_health(store: Store, run_id: int, spec: JudgeSpec) -> CascadeHealth | None:
    """The cascade a judge's spec names, on the run (None without ``escalate_to``)."""
    if spec.selective is None or not spec.selective.escalate_to:
        return None
    specs = cascade_specs(spec)
    battles = [store.battles(run_id, s.key) for s in specs]
    settings = spec.selective
    return cascade_health(
        [s.label for s in specs], battles, _labels(store, run_id, specs), settings
    )

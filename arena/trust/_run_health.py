"""Everything ``arena health``, the demo and the app's Judge health tab show about a run's
judges: each judge's health with its decisive-pair accuracy, the agreement of every two model
judges, and the agreement of each model judge with the people who voted (stored ``human:``
judges, plus votes from a file). Crash battles (an answer crashed, no judge call) are counted
apart in each judge's health and in no judge figure. Results whose simulated user failed
(conversation cases) are counted in ``simulator_errors``: not agent failures, never golden
marks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from pydantic import BaseModel

from arena.defaults import BOOTSTRAP_ROUNDS
from arena.trust._accuracy import GoldenMark, golden_marks, judge_accuracy
from arena.trust._agreement import Vote, within_agreement
from arena.trust._cascade_run import run_cascade_health
from arena.trust._health import Agreement, JudgeHealth, judge_agreement, judge_health
from arena.trust._labelled_file import LabelledRow, labelled_for
from arena.trust._selective import Labelled
from arena.trust._selective_run import run_labelled, selective_health
from arena.trust._selective_store import pooled_labelled
from arena.trust._self_preference import self_preference
from arena.trust._vote_files import HUMANS, battle_votes, human_agreement
from judges._battle import Battle, judge_battles

if TYPE_CHECKING:
    from arena.storage import Store


class JudgePairAgreement(BaseModel):
    """Two model judges on the battles both judged."""

    judges: list[str]
    n: int
    percent: float | None
    kappa: float | None


class HumanAgreement(BaseModel):
    """A model judge against the human votes (MT-Bench style: every vote against every vote).

    ``n``, ``percent`` and ``kappa`` count ties (a tie equals a tie); ``without_ties`` leaves
    out the pairs where either side is a tie.
    """

    judge: str
    label: str
    n: int
    percent: float | None
    kappa: float | None
    without_ties: Agreement


class RunHealth(BaseModel):
    """The health report of one run's judges."""

    run_id: int
    health: list[JudgeHealth]
    judge_agreement: list[JudgePairAgreement]
    human_agreement: list[HumanAgreement]
    human_votes: int
    humans: list[str]
    human_human: Agreement | None
    simulator_errors: int = 0
    """Results whose simulated user failed: not agent failures, no golden mark."""


def judges_of_run(store: Store, run_id: int) -> dict[str, list[Battle]]:
    """Judge key -> its battles on the run, newest judge first."""
    return {key: store.battles(run_id, key) for key, _, _ in store.judge_keys(run_id)}


def own_variants(store: Store, run_id: int, model_spec: str) -> set[str]:
    """The run's variants whose model is ``model_spec`` (a judge's own model)."""
    names = set(store.run(run_id).config.get("variants", {}))
    return {v.name for v in store.variants() if v.name in names and v.model.spec == model_spec}


def add_trust(
    health: JudgeHealth,
    store: Store,
    run_id: int,
    battles: list[Battle],
    marks: Mapping[int, GoldenMark],
    votes: Sequence[Vote],
    dataset: str,
    extra: Sequence[Labelled] = (),
) -> JudgeHealth:
    """A model judge's selective verdicts (calibrated on the run's golden-decisive pairs,
    ``votes`` and ``extra`` labelled verdicts, pooled with the same judge's other runs on the
    dataset) and self-preference, set on its ``health``."""
    spec = battles[0].judge
    labelled = pooled_labelled(store, run_id, spec.key, run_labelled(battles, marks, votes, extra))
    health.selective = selective_health(battles, labelled, spec, dataset)
    health.cascade = run_cascade_health(store, run_id, spec)
    own = own_variants(store, run_id, spec.model.spec)
    health.self_preference = self_preference(battles, marks, own)
    return health


def run_health(
    store: Store,
    run_id: int,
    *,
    human_votes: Sequence[Vote] = (),
    labels: Sequence[LabelledRow] = (),
    rounds: int = BOOTSTRAP_ROUNDS,
) -> RunHealth:
    """Health, decisive-pair accuracy and agreements of every judge of a run; for each model
    judge, its selective verdicts (calibrated on the run's golden-decisive pairs and the
    votes) and its self-preference.

    ``human_votes`` adds votes from a file to the stored ``human:`` judges' battles;
    ``labels`` (a labelled-verdicts file, :func:`arena.trust._labelled_file.read_labelled`)
    adds labelled verdicts to each model judge's calibration (its own rows, or rows naming
    no judge).
    """
    from arena.evaluation.run_scores import load_run_scores

    by_judge = {k: b for k, b in judges_of_run(store, run_id).items() if b}
    marks = golden_marks(load_run_scores(store, run_id).cases) if by_judge else {}
    models = {k: b for k, b in by_judge.items() if not b[0].judge.is_human}
    people = [b for battles in by_judge.values() if battles[0].judge.is_human for b in battles]
    humans = [*battle_votes(people), *human_votes]
    dataset = store.run(run_id).dataset if by_judge else ""
    healths = []
    for battles in by_judge.values():
        health = judge_health(battles)
        health.accuracy = judge_accuracy(battles, marks, rounds=rounds)
        if not battles[0].judge.is_human:
            extra = labelled_for(labels, battles[0].judge.label)
            add_trust(health, store, run_id, battles, marks, humans, dataset, extra)
        healths.append(health)
    pairs = [
        JudgePairAgreement(judges=[a, b], **judge_agreement(models[a], models[b]).model_dump())
        for a, b in combinations(models, 2)
    ]
    agreement = []
    if humans:
        for key, battles in models.items():
            row = human_agreement(judge_battles(battles), humans)
            agreement.append(
                HumanAgreement(
                    judge=key,
                    label=battles[0].judge.label,
                    **row.with_ties.model_dump(),
                    without_ties=row.without_ties,
                )
            )
    names = sorted({v.judge for v in humans})
    return RunHealth(
        run_id=run_id,
        health=healths,
        judge_agreement=pairs,
        human_agreement=agreement,
        human_votes=len(humans),
        humans=names,
        human_human=within_agreement(humans, HUMANS)[-1].with_ties if len(names) > 1 else None,
        simulator_errors=sum(r.simulator_error is not None for r in store.results(run_id)),
    )

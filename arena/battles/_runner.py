"""Judge every pair of variants on every case of a run, in both orders, with a progress bar.

Verdicts are cached by :func:`judges.verdict_key`: the judge's identity (spec, model, prompt
templates) and the requests as rendered (case content, both answers); only readable verdicts
are cached, so a failed judgement is asked again on the next run.

What becomes of each pair is one rule, shared with ``arena plan``
(:func:`arena.battles._pairing.judgeable_pairs`). A pair where an answer crashed (its result
has an error) is never dropped and never shown to the judge: the crash rule decides it
(:func:`judges._battle.crash_battle`), locally and without a call, on every run alike.
Two answers that say the same but did different things are decided likewise by the case's
deterministic golden checks when only one side passes them
(:func:`judges._battle.golden_battle`); otherwise the judge sees what each side did.
A pair where a simulated user failed (a conversation result's ``simulator_error``) is not
judged at all, since the failure is not the agent's: the report counts it in
``simulator_errors``. The pairs are handed out through the one fan-out of runs and judging
(:mod:`arena.fanout`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel, Field

from arena.battles._pairing import (
    BATTLE_FATES,
    PairFate,
    SlotPair,
    golden_passer,
    judgeable_pairs,
    pair_fate,
)
from arena.battles._requests import pair_request, untrusted_query
from arena.fanout import FanOut, Progress, run_interruptibly
from arena.golden import GoldenCase, GoldenDataset
from arena.golden._models import JudgeSettings
from arena.models import CALLS, CallCounter
from arena.records.results import RunResult
from arena.storage import Store
from arena.trust._calibration import TieMargin, apply_outcome, decide_tie_margin, tie_margin
from arena.trust._cascade import CascadeHealth
from arena.trust._cascade_run import escalate_run
from arena.trust._label_pairs import PairId
from arena.vocabulary import ERROR, TIE
from judges import (
    Judge,
    JudgeSpec,
    PairRequest,
    PairwiseJudge,
    Verdict,
    check_cascade,
    get_mode,
    verdict_key,
)
from judges._battle import Battle, crash_battle, golden_battle, pair_fields


class JudgeReport(BaseModel):
    """What ``arena judge`` did."""

    run_id: int
    judge: JudgeSpec
    tie_margin: float | None = None
    tie_margin_source: str | None = Field(
        None,
        description="Where the tie margin comes from (arena.trust.TieMargin.source: spec, "
        "golden, unlabelled, noise, default, no probabilities).",
    )
    tie_margin_why: str | None = Field(
        None, description="Why that margin, in a sentence (arena.trust.TieMargin.why)."
    )
    battles: list[Battle]
    model_calls: int
    skipped: int
    crashes: int = 0
    golden: int = Field(
        0,
        description="Battles of two answers that say the same but were made differently, "
        "decided by the golden checks (only one side passed them), without a judge call.",
    )
    simulator_errors: int = Field(
        0, description="Pairs not judged because a simulated user failed (not the agent's fault)."
    )
    warnings: list[str]
    cascade: CascadeHealth | None = Field(
        None, description="The cascade, when the judge escalates what it abstains on."
    )
    replaced: int = Field(
        0,
        description="Stored verdicts of this judge key replaced by verdicts asked again (not "
        "served from the cache: the judge's prompts, model or settings changed since).",
    )
    replaced_winners: int = Field(
        0, description="Of the replaced verdicts, how many now name another winner."
    )

    def replaced_note(self) -> str | None:
        """The line saying what re-judging replaced (None when nothing was)."""
        if not self.replaced:
            return None
        return (
            f"{self.replaced} verdicts replaced ({self.replaced_winners} with another winner): "
            f"judge {self.judge.key}'s verdicts were asked again, not served from the cache, "
            "so its prompts, model or settings changed since they were judged"
        )


@dataclass(frozen=True)
class _Pair:
    case: GoldenCase
    a: RunResult
    b: RunResult
    settings: JudgeSettings | None = None  # the dataset's judge: block
    untrusted: bool = False  # the query is not the team's text (untrusted_query)
    margin: float | None = None
    """The tie margin the two orders are combined with until the run's margin is calibrated:
    computed once per judge run from the spec (:func:`provisional_margin`) and handed to
    every pair, wherever it is judged."""


def self_preference_warnings(spec: JudgeSpec, contestants: dict[str, str]) -> list[str]:
    """Warn for every contestant whose model is the judge's own model."""
    return [
        f"judge {spec.model.spec} is also the model of contestant {name!r}: its verdicts "
        "on that variant may be biased (self-preference); the battles are marked "
        "self_judged"
        for name, model in contestants.items()
        if model == spec.model.spec
    ]


def result_slots(
    dataset: GoldenDataset, results: Iterable[RunResult]
) -> list[tuple[GoldenCase, int, dict[str, RunResult]]]:
    """A run's answers by slot (case, repeat) and variant name, slots in the order their
    first answer was stored (the order ``arena judge`` judges them)."""
    cases = {c.id: c for c in dataset.test_cases}
    by_slot: dict[tuple[str, int], dict[str, RunResult]] = {}
    for result in results:
        by_slot.setdefault((result.case_id, result.repeat), {})[result.variant] = result
    return [(cases[case_id], repeat, found) for (case_id, repeat), found in by_slot.items()]


def stored_pairs(store: Store, run_id: int, pairs: str = "all") -> list[SlotPair]:
    """Every pair of the stored run ``run_id`` that ``pairs`` asks for, with its fate
    (:func:`arena.battles._pairing.judgeable_pairs`), in the order ``arena judge`` takes them."""
    return _stored(store, run_id, pairs)[0]


def _stored(store: Store, run_id: int, pairs: str) -> tuple[list[SlotPair], list[str], Any]:
    """The run's pairs with their fates, its variants and its dataset's ``judge:`` block."""
    dataset = store.run_dataset(run_id)
    variants = list(store.run(run_id).config.get("variants", {}))
    found = judgeable_pairs(result_slots(dataset, store.results(run_id)), variants, pairs)
    return found, variants, dataset.judge


def _pairs(store: Store, run_id: int, pairs: str) -> tuple[list[_Pair], int, int, list[str]]:
    """The pairs to judge, the pairs skipped (an answer missing), the pairs not judged (a
    simulated user failed) and the run's variants."""
    found, variants, settings = _stored(store, run_id, pairs)
    untrusted = untrusted_query(store.run(run_id).config)
    todo = [
        _Pair(p.case, p.a, p.b, settings, untrusted)
        for p in found
        if p.fate in BATTLE_FATES and p.a is not None and p.b is not None
    ]
    skipped = sum(p.fate is PairFate.UNANSWERED for p in found)
    simulator_errors = sum(p.fate is PairFate.SIMULATOR for p in found)
    return todo, skipped, simulator_errors, variants


def judge_request(
    spec: JudgeSpec,
    case: GoldenCase,
    first: RunResult,
    second: RunResult,
    settings: JudgeSettings | None = None,
    *,
    query_untrusted: bool = False,
) -> PairRequest:
    """The request ``spec`` is asked for one order of a pair (``settings``: the dataset's
    ``judge:`` block; ``query_untrusted``: a run of someone else's queries,
    :func:`~arena.battles._requests.untrusted_query`); its :func:`judges.verdict_key` is the
    verdict cache's key."""
    return pair_request(
        case,
        first,
        second,
        mode=get_mode(spec.mode),
        with_trajectory=spec.with_trajectory,
        settings=spec.settings(settings),
        with_graph_path=spec.with_graph_path,
        query_untrusted=query_untrusted,
    )


#: The fates a rule decides, never a judge: judged here, not by an executor.
BY_RULE = frozenset({PairFate.CRASH, PairFate.GOLDEN})
#: Judgements being asked right now, by event loop and verdict key: a battle that needs the
#: same ordered judgement (e.g. two variants with the same answer) waits for it.
_INFLIGHT: dict[tuple[int, str], asyncio.Future[Verdict]] = {}


async def _verdict(
    judge: Judge, store: Store, pair: _Pair, first: RunResult, second: RunResult
) -> Verdict:
    request = judge_request(
        judge.spec, pair.case, first, second, pair.settings, query_untrusted=pair.untrusted
    )
    key = verdict_key(judge.spec, request)
    cached = store.get_verdict(key)
    if cached is not None:  # the same reading; this judge may combine the orders differently
        return cached.model_copy(update={"judge": judge.spec})
    loop = asyncio.get_running_loop()
    slot = (id(loop), key)
    running = _INFLIGHT.get(slot)
    if running is not None:
        shared = await asyncio.shield(running)
        return shared.model_copy(update={"judge": judge.spec})
    future: asyncio.Future[Verdict] = loop.create_future()
    _INFLIGHT[slot] = future
    try:
        verdict = await judge.judge(request)
        if verdict.ok:  # an unreadable verdict is never cached: the next run asks again
            store.put_verdict(key, verdict)
        future.set_result(verdict)
    finally:
        _INFLIGHT.pop(slot, None)
        if not future.done():
            future.cancel()
    return verdict


async def judge_both_orders(
    store: Store, judge: Judge, run_id: int, pair: _Pair, self_judged: set[str]
) -> Battle:
    """Both orders of one pair, combined into a stored battle; a pair with a crashed answer
    is decided by the crash rule instead, without a call."""
    a, b = pair.a, pair.b
    spec = judge.spec
    fate = pair_fate(a, b, case=pair.case)
    crashed = crash_battle(run_id, a, b, spec) if fate is PairFate.CRASH else None
    if crashed is not None:
        return crashed
    if fate is PairFate.GOLDEN:
        passer = golden_passer(a, b, pair.case)
        assert passer is not None
        return golden_battle(run_id, a, b, spec, passer)
    base: dict[str, Any] = dict(
        **pair_fields(run_id, a, b),
        len_a=len(a.output),
        len_b=len(b.output),
        judge=spec,
        self_judged=bool({a.variant, b.variant} & self_judged),
    )
    if fate is PairFate.SAME:
        return Battle(**base, winner=TIE)
    ab, ba = await asyncio.gather(
        _verdict(judge, store, pair, a, b), _verdict(judge, store, pair, b, a)
    )
    battle = Battle(**base, winner=TIE, verdict_ab=ab, verdict_ba=ba)
    # Provisional: the run's margin is calibrated once all its battles are judged.
    apply_outcome(battle, pair.margin)
    return battle


def provisional_margin(spec: JudgeSpec) -> float | None:
    """The margin a judge's battles are combined with before the run's margin is calibrated
    (:func:`arena.trust._calibration.tie_margin` on no battles yet): computed once per judge
    run and handed to its pairs (:attr:`_Pair.margin`)."""
    return tie_margin(spec, [])


def with_margin(pairs: list[_Pair], margin: float | None) -> list[_Pair]:
    """The pairs, each carrying the run's provisional ``margin``."""
    return [replace(pair, margin=margin) for pair in pairs]


def calibrate_run(store: Store, run_id: int, spec: JudgeSpec) -> tuple[float | None, list[Battle]]:
    """Combine every stored battle of ``spec`` on the run with the margin calibrated from all
    of them (:func:`arena.trust._calibration.tie_margin`); changed battles are stored again.

    A judge whose spec asks for selective verdicts then stores each battle's confidence and
    abstention (:func:`arena.trust._selective_store.select_run`).

    Returns the margin and the judge's battles as stored now.
    """
    decided, battles = calibrate_run_margin(store, run_id, spec)
    return decided.value, battles


def calibrate_run_margin(
    store: Store, run_id: int, spec: JudgeSpec
) -> tuple[TieMargin, list[Battle]]:
    """:func:`calibrate_run`, returning the margin with its source and why
    (:func:`arena.trust.decide_tie_margin`)."""
    from arena.evaluation.run_scores import load_run_scores
    from arena.trust._accuracy import golden_marks

    battles = store.battles(run_id, spec.key)
    marks = golden_marks(load_run_scores(store, run_id).cases) if battles else {}
    decided = decide_tie_margin(spec, battles, marks)
    margin = decided.value
    for battle in battles:
        if apply_outcome(battle, margin):
            battle.id = store.save_battle(battle)
    if spec.selective is not None:  # confidence and abstention follow the final outcomes
        from arena.trust._selective_store import select_run

        select_run(store, run_id, spec, battles)
    return decided, battles


async def judge_run_async(
    store: Store,
    run_id: int,
    spec: JudgeSpec,
    *,
    pairs: str = "all",
    only: Collection[PairId] | None = None,
    judge: Judge | None = None,
    concurrency: int = 2,
    progress: bool = True,
    executor: Any = None,
) -> JudgeReport:
    """Judge a stored run; battles are committed as they finish, verdicts cached.

    ``executor`` (an ``arena.executors.Executor``, e.g. Ray or a budget) judges each pair
    instead of this process; a pair it does not start (``--max-cost``) is left for a rerun.
    ``only`` judges just those pairs (a cascade's next judge gets what the one before
    abstained on).
    """
    check_cascade(spec)  # a cycle or a missing judge in escalate_to: before any call
    judge = judge or PairwiseJudge(spec, store=store)  # InputError before any battle
    todo, skipped, simulator_errors, variants = _pairs(store, run_id, pairs)
    todo = with_margin(todo, provisional_margin(spec))  # computed once, for every pair
    before = {(b.result_a_id, b.result_b_id): b for b in store.battles(run_id, spec.key)}
    if only is not None:
        wanted = set(only)
        todo = [
            p
            for p in todo
            if PairId.of(None, p.case.id, p.a.repeat, p.a.variant, p.b.variant) in wanted
        ]
    contestants = {v.name: v.model.spec for v in store.variants() if v.name in variants}
    warnings = self_preference_warnings(spec, contestants)
    self_judged = {n for n, m in contestants.items() if m == spec.model.spec}
    counter = CallCounter()
    battles: list[Battle] = []

    asked: set[tuple[int, int]] = set()  # pairs whose verdicts were not in the cache

    async def here(pair: _Pair) -> Battle:
        mine = CallCounter()
        token = CALLS.set(mine)
        try:
            battle = await judge_both_orders(store, judge, run_id, pair, self_judged)
        finally:
            CALLS.reset(token)
            counter.sent += mine.sent
            counter.cached += mine.cached
            counter.replayed_s += mine.replayed_s
        if mine.sent or mine.cached:
            asked.add((battle.result_a_id, battle.result_b_id))
        battle.id = store.save_battle(battle)
        return battle

    async def elsewhere(pair: _Pair) -> Battle | None:  # the same work, by the executor
        outcome = await executor.judge_pair(store, run_id, judge, pair, self_judged)
        if outcome is None:  # not started (--max-cost): left for a rerun
            return None
        counter.sent += outcome.calls
        battle: Battle = outcome.battle
        if outcome.calls:
            asked.add((battle.result_a_id, battle.result_b_id))
        return battle

    fan_out = FanOut(
        here=here,
        finished=battles.append,
        failed=lambda battle: battle.winner == ERROR,
        elsewhere=elsewhere if executor is not None else None,
        stays_here=lambda pair: pair_fate(pair.a, pair.b, case=pair.case) in BY_RULE,  # no call
    )
    await fan_out.run(todo, concurrency, Progress(len(todo), progress, "battles", "battle"))
    decided, stored = calibrate_run_margin(store, run_id, spec)

    async def escalate(next_judge: JudgeSpec, waiting: set[PairId]) -> JudgeReport:
        return await judge_run_async(
            store, run_id, next_judge, only=waiting, concurrency=concurrency, progress=progress
        )

    cascade = await escalate_run(store, run_id, spec, escalate)
    if cascade is not None:
        stored = store.battles(run_id, spec.key)
    now = {(b.result_a_id, b.result_b_id) for b in battles}
    battles = [b for b in stored if (b.result_a_id, b.result_b_id) in now]
    replaced = _replaced(before, battles, asked)
    return JudgeReport(
        run_id=run_id,
        judge=spec,
        tie_margin=decided.value,
        tie_margin_source=decided.source,
        tie_margin_why=decided.why,
        battles=battles,
        model_calls=counter.sent,
        skipped=skipped,
        crashes=sum(b.is_crash for b in battles),
        golden=sum(b.is_golden for b in battles),
        simulator_errors=simulator_errors,
        warnings=warnings,
        cascade=cascade,
        replaced=len(replaced),
        replaced_winners=sum(old.winner != new.winner for old, new in replaced),
    )


def _replaced(
    before: dict[tuple[int, int], Battle], battles: list[Battle], asked: set[tuple[int, int]]
) -> list[tuple[Battle, Battle]]:
    """(stored, new) for each stored decided battle whose verdicts were asked of the model
    again (``asked``: not served from the verdict cache); an errored one is expected to be."""
    pairs = []
    for new in battles:
        key = (new.result_a_id, new.result_b_id)
        old = before.get(key)
        if old is None or old.winner == ERROR or old.is_crash or key not in asked:
            continue
        pairs.append((old, new))
    return pairs


def judge_run(store: Store, run_id: int, spec: JudgeSpec, **kwargs: Any) -> JudgeReport:
    """Synchronous wrapper around :func:`judge_run_async`."""
    return run_interruptibly(judge_run_async(store, run_id, spec, **kwargs))

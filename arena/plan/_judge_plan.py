"""Plan ``arena judge``: the pairs it would take, each with the fate it would give it.

The pairs and their fates come from the judge runner's own rule
(:func:`arena.battles._pairing.judgeable_pairs`; on a stored run, the very pairs of
:func:`arena.battles._runner.stored_pairs`), and each request is rendered and keyed as the
runner renders it (:func:`arena.battles._runner.judge_request`), so the counts and the
share the verdict cache and the response cache answer (a verdict-cache miss whose prompt was
answered before sends nothing) are exact where the answers are stored; answers still to be
produced are estimated at the variants' usual length. Nothing is written or sent.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from arena.battles._pairing import PairFate, SlotPair, judgeable_pairs
from arena.battles._requests import expectations_text, untrusted_query
from arena.battles._runner import judge_request, stored_pairs
from arena.models import cache_key
from arena.plan._estimate import OUTPUT_TOKENS, History, cost, mean_output_chars, tokens
from arena.plan._models import Estimate, JudgePlan
from arena.plan._speed import CALL_LATENCY_S, Speed, model_speed, parallel_lanes
from arena.runner._user_model import task_case_hash
from judges import (
    PairRequest,
    get_mode,
    judge_model_config,
    judge_reply_cached,
    verdict_key,
)

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

    from arena.golden import GoldenCase
    from arena.golden._models import JudgeSettings
    from arena.models import ModelConfig
    from arena.records.results import RunResult
    from arena.storage import Store
    from arena.variants.variant import Variant
    from judges import JudgeMode, JudgeSpec


def plan_stored_judge(
    store: Store,
    run_id: int,
    judge: JudgeSpec,
    *,
    pairs: str = "all",
    concurrency: int = 2,
    measure: bool = True,
) -> JudgePlan:
    """What ``arena judge RUN`` would do on a stored run: the very pairs it would take
    (:func:`arena.battles._runner.stored_pairs`), each with the fate it would give it."""
    requests = _Requests.of(store, judge, store.run_dataset(run_id).judge, None)
    requests.untrusted = untrusted_query(store.run(run_id).config)
    found = stored_pairs(store, run_id, pairs)
    return _judge_plan(store, judge, found, requests, concurrency=concurrency, measure=measure)


def plan_judge(
    store: Store | None,
    spec: JudgeSpec,
    variants: list[Variant],
    cases: list[GoldenCase],
    repeats: int,
    stored: dict[tuple[str, str, int], RunResult],
    history: History,
    *,
    pairs: str = "all",
    concurrency: int = 2,
    measure: bool = True,
    user_model: ModelConfig | None = None,
    settings: JudgeSettings | None = None,
) -> JudgePlan:
    """The judge's pairs over the run's grid, each with the fate ``arena judge`` will give
    it (:func:`arena.battles._pairing.judgeable_pairs`): exact where both answers are
    stored, estimated (answers of the variants' usual length) where they are still to be
    produced; each request's time at the judge model's speed (both orders of a pair at once).
    ``stored`` holds the results the run keeps, keyed by (variant hash, case hash, repeat);
    ``user_model`` is the run's, which the stored results of simulated cases are keyed by;
    ``settings`` the dataset's ``judge:`` block."""
    slots = []
    for case in cases:
        digest = task_case_hash(case, user_model)
        for repeat in range(repeats):
            keys = {v.name: (v.version_hash, digest, repeat) for v in variants}
            answers = {name: stored[key] for name, key in keys.items() if key in stored}
            slots.append((case, repeat, answers))
    found = judgeable_pairs(slots, [v.name for v in variants], pairs, answers_to_come=True)
    filler = "x" * round(mean_output_chars(variants, history))
    requests = _Requests.of(store, spec, settings, filler)
    return _judge_plan(store, spec, found, requests, concurrency=concurrency, measure=measure)


@dataclass
class _Requests:
    """The judge requests of a plan: how many, how many the verdict cache holds, and the
    sizes (tokens) of those to send; identical requests are sent once."""

    store: Store | None
    spec: JudgeSpec
    mode: JudgeMode
    settings: JudgeSettings | None
    filler: str | None
    """An answer of the variants' usual length, for answers still to be produced (None: a
    stored run, whose missing answers ``arena judge`` skips)."""
    calls: int = 0
    cached: int = 0
    sent: list[int] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    """The model calls the plan sends already (their prompts' keys): an identical one is not
    sent again (the judge runner's reply cache answers it)."""
    untrusted: bool = False
    """The run's queries are not the team's text (its verdict keys say so)."""

    @classmethod
    def of(
        cls,
        store: Store | None,
        spec: JudgeSpec,
        settings: JudgeSettings | None,
        filler: str | None,
    ) -> _Requests:
        """The requests of ``spec`` on a dataset with the ``judge:`` block ``settings``."""
        return cls(store, spec, get_mode(spec.mode), settings, filler)

    def estimate(self, case: GoldenCase, filler: str) -> None:
        """Both orders of a pair whose answers (``filler``) are still to be produced."""
        request = PairRequest(
            case_id=case.id,
            query=case.input,
            reference=case.reference_answer,
            expectations=expectations_text(case),
            answer_a=filler,
            answer_b=filler,
        )
        size = _request_tokens(self.mode.conversations(request))
        self.calls += 2 * len(size)
        self.sent += size * 2

    def judge(self, case: GoldenCase, a: RunResult, b: RunResult) -> None:
        """Both orders of a stored pair, as the judge runner renders and caches them: a
        request whose verdict is cached sends nothing; else each of its model calls is sent
        unless the response cache holds its reply (the same prompt answered before: another
        judge key on the same model and prompts, a grade shared between pairs) or the plan
        sends it already."""
        for first, second in ((a, b), (b, a)):
            request = judge_request(
                self.spec, case, first, second, self.settings, query_untrusted=self.untrusted
            )
            conversations = self.mode.conversations(request)
            self.calls += len(conversations)
            key = verdict_key(self.spec, request)
            if self.store is not None and self.store.get_verdict(key):
                self.cached += len(conversations)
                continue
            for messages, size in zip(conversations, _request_tokens(conversations), strict=True):
                self._call(messages, size)

    def _call(self, messages: list[BaseMessage], size: int) -> None:
        """One model call of a request whose verdict is not cached (``size``: its tokens):
        cached when the response cache holds its reply, else sent unless the plan sends the
        same prompt already."""
        if self.store is not None and judge_reply_cached(self.spec, self.store, messages):
            self.cached += 1
            return
        prompt = cache_key(self.spec.key, "", messages, {})
        if prompt not in self.seen:
            self.sent.append(size)
        self.seen.add(prompt)


def _judge_plan(
    store: Store | None,
    spec: JudgeSpec,
    found: list[SlotPair],
    requests: _Requests,
    *,
    concurrency: int,
    measure: bool,
) -> JudgePlan:
    """The plan of judging ``found``: a pair not answered yet is estimated when
    ``requests`` has a filler answer (a plan of a run), else left out as ``arena judge``
    leaves it."""
    fates = Counter(p.fate for p in found)
    filler = requests.filler
    estimated = fates[PairFate.UNANSWERED] if filler is not None else 0
    for pair in found:
        if pair.fate is PairFate.JUDGE and pair.a is not None and pair.b is not None:
            requests.judge(pair.case, pair.a, pair.b)
        elif pair.fate is PairFate.UNANSWERED and filler is not None:
            requests.estimate(pair.case, filler)
    config = judge_model_config(spec)
    out = _judge_output_tokens(store, spec, config.max_tokens, requests.mode.needs_logprobs)
    sent = requests.sent
    to_send = len(sent)
    mean_in = sum(sent) / to_send if to_send else 0.0
    speed = model_speed(config, measure) if to_send else Speed(per_call_s=CALL_LATENCY_S)
    latency = speed.seconds(1, mean_in, out[0])
    per_call = Estimate(
        calls=1,
        input_tokens=mean_in,
        output_tokens=out[0],
        latency_s=latency,
        cost_usd=cost(config, mean_in, out[0], latency),
        source=out[1] if speed.source == "dataset" else f"{out[1]}; {speed.text}",
    )
    lanes = parallel_lanes(config, 2 * max(1, concurrency))  # both orders of a pair at once
    return JudgePlan(
        judge=spec.label,
        judge_key=spec.key,
        pairs=fates[PairFate.JUDGE] + fates[PairFate.SAME] + estimated,
        skipped=fates[PairFate.CRASH] + fates[PairFate.GOLDEN],
        simulator_errors=fates[PairFate.SIMULATOR],
        unanswered=fates[PairFate.UNANSWERED] - estimated,
        ties=fates[PairFate.SAME],
        estimated_pairs=estimated,
        calls=requests.calls,
        cached=requests.cached,
        to_send=to_send,
        per_call=per_call,
        input_tokens=sum(sent),
        output_tokens=round(to_send * out[0]),
        cost_usd=cost(config, sum(sent), to_send * out[0], to_send * latency),
        wall_s=to_send * latency / lanes,
    )


def _request_tokens(conversations: list[list[BaseMessage]]) -> list[int]:
    return [sum(tokens(str(m.content)) for m in c) for c in conversations]


def _judge_output_tokens(
    store: Store | None, spec: JudgeSpec, max_tokens: int, logprobs: bool
) -> tuple[float, str]:
    if logprobs:
        return float(max_tokens), "dataset"
    raws = [
        len(v.raw)
        for b in (store.battles(judge_key=spec.key) if store else [])
        for v in (b.verdict_ab, b.verdict_ba)
        if v is not None and v.raw
    ]
    if raws:
        return sum(raws) / len(raws) / 4, f"history: {len(raws)} verdicts of this judge"
    return float(min(OUTPUT_TOKENS, max_tokens)), "dataset"

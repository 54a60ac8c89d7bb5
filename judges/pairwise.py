"""The pairwise LLM judge: one order per call; the arena judges both orders."""

from __future__ import annotations

import asyncio
import math
from typing import Any, Protocol, runtime_checkable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from arena.models import CachingChatModel, MemoryResponseStore, ResponseStore, make_chat_model
from judges.parsing import first_token_probs, label_from_probability, parse_verdict
from judges.prompts import ASK_AGAIN, SYSTEM_LOGPROBS, SYSTEM_TEXT, grade_prompt, pair_prompt
from judges.records import JudgeSpec, PairRequest, Verdict


@runtime_checkable
class Judge(Protocol):
    """A judge compares answer A (shown first) with answer B for one request."""

    @property
    def spec(self) -> JudgeSpec:
        """What rebuilds this judge; stored with every verdict."""
        ...

    async def judge(self, request: PairRequest) -> Verdict:
        """Judge one order. Failures come back as a Verdict with ``error`` set."""
        ...


def judge_model_config(spec: JudgeSpec) -> Any:
    """The judge's model config: temperature 0; logprobs mode reads one token's logprobs."""
    update: dict[str, Any] = {"temperature": 0.0}
    if spec.mode in ("logprobs", "grades"):
        update.update(max_tokens=1, extra={**spec.model.extra, "logprobs": True,
                                           "top_logprobs": 10})
    return spec.model.model_copy(update=update)


YES_NO: dict[str, tuple[str, ...]] = {"YES": ("YES", "Y"), "NO": ("NO", "N")}


class PairwiseJudge:
    """An LLM judge that reads ``[[A>B]]``-style verdicts from text or P(A)/P(B) from logprobs.
    """

    def __init__(self, spec: JudgeSpec, *, store: ResponseStore | None = None,
                 model: BaseChatModel | None = None) -> None:
        self._spec = spec
        self._grades: dict[str, asyncio.Future[float]] = {}
        config = judge_model_config(spec)
        self.model = model or CachingChatModel(
            factory=lambda: make_chat_model(config), identity=config.cache_identity(),
            namespace="judge", store=store if store is not None else MemoryResponseStore())

    @property
    def spec(self) -> JudgeSpec:
        return self._spec

    async def judge(self, request: PairRequest) -> Verdict:
        if self._spec.mode == "logprobs":
            return await self._judge_logprobs(request)
        if self._spec.mode == "grades":
            return await self._judge_grades(request)
        return await self._judge_text(request)

    async def _call(self, messages: list[BaseMessage]) -> AIMessage:
        reply = await self.model.ainvoke(messages)
        assert isinstance(reply, AIMessage)
        return reply

    async def _judge_text(self, request: PairRequest) -> Verdict:
        messages: list[BaseMessage] = [SystemMessage(SYSTEM_TEXT),
                                       HumanMessage(pair_prompt(request, logprobs=False))]
        calls = 0
        raw = ""
        try:
            for attempt in range(2):
                reply = await self._call(messages)
                calls += 1
                raw = str(reply.content)
                label = parse_verdict(raw)
                if label is not None:
                    return Verdict(label=label, rationale=_rationale(raw), raw=raw,
                                   judge=self._spec, model_calls=calls)
                if attempt == 0:
                    messages += [reply, HumanMessage(ASK_AGAIN)]
        except Exception as exc:
            return self._failed(f"{type(exc).__name__}: {exc}", raw, calls + 1)
        return self._failed("no [[verdict]] in the judge's reply, even when asked again",
                            raw, calls)

    async def _judge_logprobs(self, request: PairRequest) -> Verdict:
        messages: list[BaseMessage] = [SystemMessage(SYSTEM_LOGPROBS),
                                       HumanMessage(pair_prompt(request, logprobs=True))]
        try:
            reply = await self._call(messages)
        except Exception as exc:
            return self._failed(f"{type(exc).__name__}: {exc}", "", 1)
        probs = first_token_probs(reply.response_metadata or {})
        total = probs.get("A", 0.0) + probs.get("B", 0.0)
        if total <= 0:
            return self._failed("the judge model returned no log-probabilities for A or B",
                                str(reply.content), 1)
        p_first = probs["A"] / total
        label = label_from_probability(p_first, self._spec.tie_margin)
        return Verdict(label=label, p_first=p_first, raw=str(reply.content),
                       rationale=f"P(A)={probs['A']:.3f}, P(B)={probs['B']:.3f}",
                       judge=self._spec, model_calls=1)

    async def _p_yes(self, request: PairRequest, answer: str) -> float:
        # One grade per distinct prompt, shared by concurrent battles: the same answer always
        # gets the same grade, so both orders of a battle agree by construction.
        prompt = grade_prompt(request, answer)
        task = self._grades.get(prompt)
        if task is None:
            task = asyncio.ensure_future(self._grade(prompt))
            self._grades[prompt] = task
        return await asyncio.shield(task)

    async def _grade(self, prompt: str) -> float:
        messages: list[BaseMessage] = [SystemMessage(SYSTEM_LOGPROBS), HumanMessage(prompt)]
        reply = await self._call(messages)
        probs = first_token_probs(reply.response_metadata or {}, YES_NO)
        total = probs.get("YES", 0.0) + probs.get("NO", 0.0)
        if total <= 0:
            raise ValueError("the judge model returned no log-probabilities for YES or NO")
        return min(max(probs["YES"] / total, 1e-6), 1 - 1e-6)

    async def _judge_grades(self, request: PairRequest) -> Verdict:
        try:
            p_a = await self._p_yes(request, request.answer_a)
            p_b = await self._p_yes(request, request.answer_b)
        except Exception as exc:
            return self._failed(f"{type(exc).__name__}: {exc}", "", 2)
        # Bradley-Terry on the two grades: P(A better) = sigmoid(logit(p_a) - logit(p_b)).
        diff = math.log(p_a / (1 - p_a)) - math.log(p_b / (1 - p_b))
        p_first = 1.0 / (1.0 + math.exp(-diff))
        label = label_from_probability(p_first, self._spec.tie_margin)
        return Verdict(label=label, p_first=p_first, judge=self._spec, model_calls=2,
                       rationale=f"P(A good)={p_a:.3f}, P(B good)={p_b:.3f}")

    def _failed(self, error: str, raw: str, calls: int) -> Verdict:
        return Verdict(error=error, raw=raw, judge=self._spec, model_calls=calls)


def _rationale(text: str, limit: int = 600) -> str:
    cut = text.rfind("[[")
    body = (text[:cut] if cut > 0 else text).strip()
    return body[:limit]

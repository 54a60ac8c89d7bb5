"""The pairwise LLM judge: one order per call; the arena judges both orders.

How it asks and reads the reply is its mode's business (:mod:`judges.modes`); the judge owns
the model, turns failures into error verdicts and keeps unreadable replies out of the cache.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage

from arena.models import (
    CachingChatModel,
    MemoryResponseStore,
    ResponseStore,
    holds_reply,
    make_chat_model,
)
from arena.models._config import ModelConfig
from judges._injection import injection_marks
from judges._types import JudgeSpec, PairRequest, Verdict
from judges.modes import UnreadableReply, get_mode


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


def judge_model_config(spec: JudgeSpec) -> ModelConfig:
    """The judge's model config, as its mode wants it.

    Args:
        spec: the judge.

    Returns:
        Its model config at temperature 0, asking for one token's logprobs in the modes that
        read them.
    """
    return get_mode(spec.mode).model_config(spec.model)


JUDGE_NAMESPACE = "judge"
"""The judges' namespace in the response cache (their replies are never an agent's)."""


def judge_reply_cached(spec: JudgeSpec, store: ResponseStore, messages: list[BaseMessage]) -> bool:
    """Whether the judge's model would answer ``messages`` from the response cache.

    Nothing is sent: a plan asks this of a request whose verdict is not cached, since the same
    prompt answered before (by this judge, or another judge key on the same model and
    prompts) costs no call.

    Args:
        spec: the judge.
        store: the response cache (the database).
        messages: one conversation the judge's mode opens.

    Returns:
        True when a usable reply to ``messages`` is stored for the judge's model.
    """
    config = judge_model_config(spec)
    return holds_reply(store, config.cache_identity(), JUDGE_NAMESPACE, messages)


def forget_reply(model: BaseChatModel, reply: AIMessage) -> None:
    """Drop an unusable reply from the response cache, so the next run asks again."""
    if isinstance(model, CachingChatModel):
        model.forget(reply)


class _Asker:
    """The model as one judgement sees it: counts its calls."""

    def __init__(self, spec: JudgeSpec, model: BaseChatModel) -> None:
        self._spec, self._model, self.calls = spec, model, 0

    @property
    def spec(self) -> JudgeSpec:
        return self._spec

    async def ask(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        self.calls += 1
        reply = await self._model.ainvoke(messages, **kwargs)
        assert isinstance(reply, AIMessage)
        return reply


class PairwiseJudge:
    """An LLM judge of one order of a pair, in the mode its spec names."""

    def __init__(
        self,
        spec: JudgeSpec,
        *,
        store: ResponseStore | None = None,
        model: BaseChatModel | None = None,
    ) -> None:
        self._spec = spec
        self.mode = get_mode(spec.mode)
        self.mode.check(spec)
        config = self.mode.model_config(spec.model)
        self.model = model or CachingChatModel(
            factory=lambda: make_chat_model(config),
            identity=config.cache_identity(),
            namespace=JUDGE_NAMESPACE,
            store=store if store is not None else MemoryResponseStore(),
        )

    @property
    def spec(self) -> JudgeSpec:
        return self._spec

    async def judge(self, request: PairRequest) -> Verdict:
        """Judge one order; the verdict marks the answers that seem to address the judge."""
        verdict = await self._judge(request)
        verdict.suspected_injection = injection_marks(request)
        return verdict

    async def _judge(self, request: PairRequest) -> Verdict:
        asker = _Asker(self._spec, self.model)
        try:
            reading = await self.mode.read(asker, request)
        except UnreadableReply as exc:
            for reply in exc.replies:
                forget_reply(self.model, reply)
            raw = str(exc.replies[-1].content) if exc.replies else ""
            return self._failed(str(exc), raw, asker.calls)
        except Exception as exc:
            return self._failed(f"{type(exc).__name__}: {exc}", "", asker.calls)
        return Verdict(
            label=reading.label,
            p_first=reading.p_first,
            rationale=reading.rationale,
            raw=reading.raw,
            judge=self._spec,
            model_calls=asker.calls if reading.calls is None else reading.calls,
            details=reading.details,
        )

    async def grade(self, request: PairRequest) -> float:
        """P(YES) of answer A graded alone, in the ``grades`` mode (a reply that cannot be
        read is dropped from the cache and raised as :class:`UnreadableReply`)."""
        from judges.modes._grades import GradesMode

        if not isinstance(self.mode, GradesMode):
            raise TypeError(f"judge mode {self.mode.name!r} does not grade one answer")
        try:
            return await self.mode.grade(_Asker(self._spec, self.model), request)
        except UnreadableReply as exc:
            for reply in exc.replies:
                forget_reply(self.model, reply)
            raise

    def _failed(self, error: str, raw: str, calls: int) -> Verdict:
        return Verdict(error=error, raw=raw, judge=self._spec, model_calls=calls)

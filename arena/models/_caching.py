"""Response cache and retries around any chat model.

Every model call goes through :class:`CachingChatModel`: the key is the model's identity
(spec and sampling parameters), a namespace (the repeat index), the conversation and the bound
tools. A hit replays the stored message; a miss calls the model with retries on transient
errors and malformed replies, and stores the reply only if it is usable. An unchanged rerun
therefore sends no request at all. A caller whose own parser rejects a reply removes it with
:meth:`CachingChatModel.forget`, so the next run asks again.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, message_to_dict, messages_from_dict
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ConfigDict, Field, PrivateAttr

from arena.models._replies import check_reply, is_empty, is_malformed_reply, reply_message
from arena.models._retry import RetryPolicy, is_transient
from arena.secrets import redact_exception

T = TypeVar("T")


class ResponseStore(Protocol):
    """Where cached model replies live (the database in production, a dict in tests).

    A store whose calls are cheaper than a hop to a worker thread (a dict, a local SQLite file)
    says so with a true ``inline_io`` attribute; async callers then call it on the event loop
    (see :func:`store_call`). Any other store is called on a worker thread.
    """

    def get(self, key: str) -> dict[str, Any] | None: ...

    def put(self, key: str, model: str, value: dict[str, Any]) -> None: ...

    def delete(self, key: str) -> None: ...


class MemoryResponseStore:
    """A dict-backed ResponseStore."""

    inline_io = True

    def __init__(self) -> None:
        self.data: dict[str, dict[str, Any]] = {}

    def get(self, key: str) -> dict[str, Any] | None:
        return self.data.get(key)

    def put(self, key: str, model: str, value: dict[str, Any]) -> None:
        self.data[key] = value

    def delete(self, key: str) -> None:
        self.data.pop(key, None)


async def store_call(store: object, method: Callable[..., T], *args: Any) -> T:
    """``method(*args)`` of ``store``: on the event loop when the store declares ``inline_io``
    (microseconds of work: a thread hop and the GIL contention it brings cost more), else
    on a worker thread, awaited, so a slow database never stalls the other tasks."""
    if getattr(store, "inline_io", False):
        return method(*args)
    return await asyncio.to_thread(method, *args)


@dataclass
class CallCounter:
    """Model requests sent (cache misses) and replayed from cache in the current context.

    ``replayed_s`` adds up the original latency of replayed replies, so a result resumed from
    the cache reports the time the answer really took.
    """

    sent: int = 0
    cached: int = 0
    replayed_s: float = 0.0


# Bumped whenever what a cached reply holds changes, so old entries are never replayed.
CACHE_FORMAT = 2

CALLS: contextvars.ContextVar[CallCounter | None] = contextvars.ContextVar(
    "arena_calls", default=None
)

CACHE_KEY_FIELD = "arena_cache_key"
"""response_metadata field of every reply holding its cache key (never stored, never hashed)."""


def _message_key(message: BaseMessage) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": message.type, "content": message.content}
    if isinstance(message, AIMessage) and message.tool_calls:
        entry["tool_calls"] = [[c["name"], c["args"], c.get("id")] for c in message.tool_calls]
    tool_call_id = getattr(message, "tool_call_id", None)
    if tool_call_id:
        entry["tool_call_id"] = tool_call_id
    return entry


def cache_key(
    identity: str, namespace: str, messages: Sequence[BaseMessage], kwargs: dict[str, Any]
) -> str:
    """A stable key for one model call: run ids, timestamps and ports never enter it."""
    blob = json.dumps(
        {
            "format": CACHE_FORMAT,
            "model": identity,
            "ns": namespace,
            "messages": [_message_key(m) for m in messages],
            "kwargs": kwargs,
        },
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(blob.encode()).hexdigest()


def holds_reply(
    store: ResponseStore, identity: str, namespace: str, messages: Sequence[BaseMessage]
) -> bool:
    """Whether a call of ``messages`` (no tools, no other arguments) to the model ``identity``
    in ``namespace`` would be replayed from ``store``, not sent (a plan's question: nothing is
    sent, nothing counted)."""
    stored = store.get(cache_key(identity, namespace, messages, {"stop": None}))
    return stored is not None and not is_empty(messages_from_dict([stored["message"]])[0])


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop, or None outside one."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class CachingChatModel(BaseChatModel):
    """Wraps a chat model with a persistent response cache and retries."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    inner: BaseChatModel | None = None
    factory: Any = Field(None, description="Builds the inner model on the first cache miss.")
    identity: str
    namespace: str = ""
    store: Any = Field(default_factory=MemoryResponseStore)
    retry: RetryPolicy = Field(default_factory=RetryPolicy.from_env)
    _built_on: Any = PrivateAttr(default=None)  # the event loop the inner model was built on

    @property
    def _llm_type(self) -> str:
        return "arena-cached"

    def _model(self) -> BaseChatModel:
        # Built lazily so a fully cached rerun never starts a model server. A model kept
        # between runs (an executor's, a judge's) is built again on each new event loop: its
        # HTTP client's pooled connections belong to the loop they were opened on, and once
        # that loop is closed the next request fails ("Event loop is closed").
        loop = _running_loop()
        if self.factory is not None and loop is not None:
            if self._built_on is not None and self._built_on is not loop:
                self.inner = None
            self._built_on = loop
        if self.inner is None:
            if self.factory is None:
                raise ValueError("CachingChatModel needs inner or factory")
            self.inner = self.factory()
        assert self.inner is not None
        return self.inner

    def bind_tools(
        self, tools: Sequence[dict[str, Any] | type | Any | BaseTool], **kwargs: Any
    ) -> Runnable[LanguageModelInput, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _inner_kwargs(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        """``kwargs`` as the inner model takes them: tools are bound (and cached) in OpenAI's
        format; a model of another provider (``langchain:anthropic:...``) gets them converted
        by its own ``bind_tools`` (Anthropic's ``input_schema``, ...). OpenAI-compatible and
        scripted models take them as they are."""
        model = self._model()
        if not kwargs.get("tools") or type(model).__module__.startswith(_OPENAI_SHAPED):
            return kwargs
        choice = {"tool_choice": kwargs["tool_choice"]} if "tool_choice" in kwargs else {}
        bound = model.bind_tools(kwargs["tools"], **choice)
        rest = {k: v for k, v in kwargs.items() if k not in ("tools", "tool_choice")}
        return {**rest, **getattr(bound, "kwargs", {})}

    def forget(self, reply: BaseMessage) -> None:
        """Delete ``reply``'s cache entry (e.g. its verdict could not be parsed), so the same
        call is sent again next time. Replies that did not come from this cache are ignored."""
        key = (reply.response_metadata or {}).get(CACHE_KEY_FIELD)
        if isinstance(key, str) and key:
            self.store.delete(key)

    def _lookup(
        self, messages: list[BaseMessage], kwargs: dict[str, Any]
    ) -> tuple[str, ChatResult | None]:
        key = cache_key(self.identity, self.namespace, messages, kwargs)
        return key, self._replay(key, self.store.get(key))

    async def _alookup(
        self, messages: list[BaseMessage], kwargs: dict[str, Any]
    ) -> tuple[str, ChatResult | None]:
        key = cache_key(self.identity, self.namespace, messages, kwargs)
        return key, self._replay(key, await store_call(self.store, self.store.get, key))

    def _replay(self, key: str, stored: dict[str, Any] | None) -> ChatResult | None:
        """The cached reply ``stored`` under ``key``, counted as replayed; None to ask."""
        if stored is None:
            return None
        message = messages_from_dict([stored["message"]])[0]
        if is_empty(message):  # cached before empty replies were refused: ask again
            return None
        counter = CALLS.get()
        if counter is not None:
            counter.cached += 1
            counter.replayed_s += float(stored.get("latency_s", 0.0))
        return _tagged(message, key)

    def _logprobs_requested(self, kwargs: dict[str, Any]) -> bool:
        return bool(kwargs.get("logprobs") or getattr(self._model(), "logprobs", False))

    def _entry(
        self, result: ChatResult, latency_s: float, kwargs: dict[str, Any]
    ) -> tuple[BaseMessage, dict[str, Any]]:
        """The usable reply of ``result`` (MalformedReplyError otherwise, counted as sent
        when usable) and the cache entry to store for it."""
        message = reply_message(result)
        check_reply(message, logprobs_requested=self._logprobs_requested(kwargs))
        counter = CALLS.get()
        if counter is not None:
            counter.sent += 1
        return message, {"message": message_to_dict(message), "latency_s": round(latency_s, 4)}

    def _save(
        self, key: str, result: ChatResult, latency_s: float, kwargs: dict[str, Any]
    ) -> ChatResult:
        message, entry = self._entry(result, latency_s, kwargs)
        self.store.put(key, self.identity, entry)
        return _tagged(message, key)

    async def _asave(
        self, key: str, result: ChatResult, latency_s: float, kwargs: dict[str, Any]
    ) -> ChatResult:
        message, entry = self._entry(result, latency_s, kwargs)
        await store_call(self.store, self.store.put, key, self.identity, entry)
        return _tagged(message, key)

    def _backoff(self, exc: Exception, attempt: int) -> float:
        """Seconds to wait before retrying after ``exc``; re-raises it (redacted) instead when
        it is not worth retrying or the attempts are spent."""
        retryable = is_transient(exc) or is_malformed_reply(exc)
        if not retryable or attempt + 1 >= self.retry.attempts:
            raise redact_exception(exc)  # whoever records this error never sees an API key
        return self.retry.delay(attempt)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        key, hit = self._lookup(messages, {**kwargs, "stop": stop})
        if hit is not None:
            return hit
        attempt = 0  # at least one attempt, whatever the policy says (ARENA_RETRIES=0)
        while True:
            started = time.perf_counter()
            try:
                inner = self._inner_kwargs(kwargs)
                result = self._model()._generate(messages, stop=stop, **inner)
                return self._save(key, result, time.perf_counter() - started, kwargs)
            except Exception as exc:
                time.sleep(self._backoff(exc, attempt))  # re-raises after the last attempt
            attempt += 1

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # The store's reads and writes run on a worker thread, awaited, unless the store is
        # cheaper to call inline (store_call); the order is unchanged.
        key, hit = await self._alookup(messages, {**kwargs, "stop": stop})
        if hit is not None:
            return hit
        attempt = 0  # at least one attempt, whatever the policy says (ARENA_RETRIES=0)
        while True:
            started = time.perf_counter()
            try:
                inner = self._inner_kwargs(kwargs)
                result = await self._model()._agenerate(messages, stop=stop, **inner)
                return await self._asave(key, result, time.perf_counter() - started, kwargs)
            except Exception as exc:
                await asyncio.sleep(self._backoff(exc, attempt))  # re-raises after the last
            attempt += 1


_OPENAI_SHAPED = ("langchain_openai", "arena.")
"""Modules of chat models that take tools in OpenAI's format as they are."""


def _tagged(message: BaseMessage, key: str) -> ChatResult:
    meta = {**message.response_metadata, CACHE_KEY_FIELD: key}
    message = message.model_copy(update={"response_metadata": meta})
    return ChatResult(generations=[ChatGeneration(message=message)])

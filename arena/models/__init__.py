"""Chat models: providers behind one registry, plus caching, retries and prices."""

from arena.models._caching import (
    CALLS,
    CachingChatModel,
    CallCounter,
    MemoryResponseStore,
    ResponseStore,
    cache_key,
    holds_reply,
    store_call,
)
from arena.models._config import ModelConfig
from arena.models._factory import check_model, make_chat_model
from arena.models._fake import FakeChatModel, FakeScript, register_fake
from arena.models._pricing import Price, model_price, price_for
from arena.models._replies import MalformedReplyError, is_malformed_reply
from arena.models._retry import (
    RetryPolicy,
    TransientModelError,
    is_transient,
    model_failure,
    model_failure_reason,
)
from arena.models.providers import PROVIDERS, Provider, provider_names, register_provider

__all__ = [
    "CALLS",
    "PROVIDERS",
    "CachingChatModel",
    "CallCounter",
    "FakeChatModel",
    "FakeScript",
    "MalformedReplyError",
    "MemoryResponseStore",
    "ModelConfig",
    "Price",
    "Provider",
    "ResponseStore",
    "RetryPolicy",
    "TransientModelError",
    "cache_key",
    "check_model",
    "holds_reply",
    "is_malformed_reply",
    "is_transient",
    "make_chat_model",
    "model_failure",
    "model_failure_reason",
    "model_price",
    "price_for",
    "provider_names",
    "register_fake",
    "register_provider",
    "store_call",
]

"""Chat models: one factory keyed by a spec string, plus caching, retries and prices."""

from arena.models.caching import (
    CALLS,
    CachingChatModel,
    CallCounter,
    MemoryResponseStore,
    ResponseStore,
    cache_key,
)
from arena.models.config import ModelConfig
from arena.models.factory import make_chat_model
from arena.models.fake import FakeChatModel, FakeScript, register_fake
from arena.models.pricing import Price, price_for
from arena.models.retry import RetryPolicy, TransientModelError, is_transient

__all__ = [
    "CALLS",
    "CachingChatModel",
    "CallCounter",
    "FakeChatModel",
    "FakeScript",
    "MemoryResponseStore",
    "ModelConfig",
    "Price",
    "ResponseStore",
    "RetryPolicy",
    "TransientModelError",
    "cache_key",
    "is_transient",
    "make_chat_model",
    "price_for",
    "register_fake",
]

"""Chat models: providers behind one registry, plus caching, retries and prices.

Public names load on first use, so the provider registry
(:mod:`arena.models.providers._registry`) is read without loading a model library.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real names, for type checkers
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

_EXPORTS = {
    "CALLS": "arena.models._caching",
    "CachingChatModel": "arena.models._caching",
    "CallCounter": "arena.models._caching",
    "MemoryResponseStore": "arena.models._caching",
    "ResponseStore": "arena.models._caching",
    "cache_key": "arena.models._caching",
    "holds_reply": "arena.models._caching",
    "store_call": "arena.models._caching",
    "ModelConfig": "arena.models._config",
    "check_model": "arena.models._factory",
    "make_chat_model": "arena.models._factory",
    "FakeChatModel": "arena.models._fake",
    "FakeScript": "arena.models._fake",
    "register_fake": "arena.models._fake",
    "Price": "arena.models._pricing",
    "price_for": "arena.models._pricing",
    "model_price": "arena.models._pricing",
    "MalformedReplyError": "arena.models._replies",
    "is_malformed_reply": "arena.models._replies",
    "RetryPolicy": "arena.models._retry",
    "TransientModelError": "arena.models._retry",
    "is_transient": "arena.models._retry",
    "model_failure": "arena.models._retry",
    "model_failure_reason": "arena.models._retry",
    "PROVIDERS": "arena.models.providers",
    "Provider": "arena.models.providers",
    "provider_names": "arena.models.providers",
    "register_provider": "arena.models.providers",
}


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


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.models' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

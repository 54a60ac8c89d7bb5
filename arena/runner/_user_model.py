"""The model that plays a simulated user: which one, its cached client, and its place in the
fingerprint of a conversation case's results.

A simulated user's own ``model`` wins, then the run's ``user_model`` option, then
:data:`DEFAULT_USER_MODEL`. Scripted and one-message cases have no user model. The stored
case hash of a simulated case folds in that model's identity and the simulated user's prompt
version, so changing either reruns only those cases.
"""

from __future__ import annotations

import hashlib
import importlib
from typing import TYPE_CHECKING

from pydantic import ValidationError

from arena.errors import InputError
from arena.golden import GoldenCase, case_hash
from arena.models import CachingChatModel, ModelConfig, make_chat_model

if TYPE_CHECKING:
    from arena.models import ResponseStore

DEFAULT_USER_MODEL = "local:qwen2.5-coder-1.5b"
"""The spec that plays a simulated user when neither the case nor the run names one."""


def parse_user_model(spec: str | None, field: str = "user_model") -> ModelConfig | None:
    """The model config of a ``--user-model`` spec (None: not given); InputError names
    ``field`` for a malformed spec."""
    if spec is None or not spec.strip():
        return None
    try:
        return ModelConfig(spec=spec.strip())
    except ValidationError as exc:
        raise InputError(exc.errors()[0]["msg"], field=field) from None


def user_model_config(case: GoldenCase, run_user_model: ModelConfig | None) -> ModelConfig | None:
    """The model that plays the case's simulated user (None: not a simulated case).

    Raises:
        InputError: the case's own ``conversation.user.model`` is not a model spec.
    """
    conversation = case.conversation
    if conversation is None or conversation.user is None:
        return None
    if conversation.user.model is not None:
        try:
            return ModelConfig(spec=conversation.user.model)
        except ValidationError as exc:
            raise InputError(
                f"case {case.id}: {exc.errors()[0]['msg']}", field="conversation.user.model"
            ) from None
    return run_user_model or ModelConfig(spec=DEFAULT_USER_MODEL)


def task_case_hash(case: GoldenCase, run_user_model: ModelConfig | None = None) -> str:
    """The case's fingerprint in a run: ``case_hash(case)``, with the identity of the model
    playing its simulated user folded in (so changing that model reruns only such cases)."""
    digest = case_hash(case)
    config = user_model_config(case, run_user_model)
    if config is None:
        return digest
    blob = f"{digest}|user-model:{config.spec}|{config.cache_identity()}|{_prompt_version()}"
    return hashlib.sha256(blob.encode()).hexdigest()[: len(digest)]


def _prompt_version() -> str:
    """The simulated user's prompt version (its module's ``PROMPT_VERSION``; "" when this
    installation has no simulated users): a new prompt is a new simulated user."""
    from arena.conversations._make import SIMULATED_MODULE, simulated_users_available

    if not simulated_users_available():
        return ""
    return str(getattr(importlib.import_module(SIMULATED_MODULE), "PROMPT_VERSION", ""))


def user_chat_model(config: ModelConfig, repeat: int, store: ResponseStore) -> CachingChatModel:
    """The user model of one repeat, behind the run's response cache exactly like an agent's
    model (same identity and namespace scheme), so a rerun sends no call."""
    return CachingChatModel(
        factory=lambda: make_chat_model(config),
        identity=config.cache_identity(),
        namespace=f"repeat={repeat}",
        store=store,
    )

"""How a variant or a judge names and parameterises its chat model."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_serializer, field_validator

from arena.inputs.validation import StrictInt, StrictNumber
from arena.models.providers._registry import PROVIDERS


class ModelConfig(BaseModel):
    """A chat model: a spec string plus sampling parameters and optional prices.

    Spec forms: ``local:qwen2.5-coder-1.5b`` (the embedded llama.cpp model),
    ``openai:MODEL`` (any OpenAI-compatible endpoint, with ``base_url`` and the name of the
    environment variable holding the key in ``api_key_env``), ``fake:NAME`` (scripted, tests),
    or any other provider registered in ``arena.models.providers``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    spec: str = Field(
        description="PROVIDER:MODEL, e.g. 'local:qwen2.5-coder-1.5b', 'openai:gpt-4o-mini', "
        "'fake:NAME'."
    )
    temperature: StrictNumber = Field(0.0, ge=0.0, le=2.0, description="Sampling temperature.")
    max_tokens: StrictInt = Field(384, ge=1, description="Most tokens in one reply.")
    timeout: StrictNumber = Field(120.0, gt=0, description="Seconds one model call may take.")
    base_url: str | None = Field(
        None, description="The OpenAI-compatible endpoint (Ollama, vLLM, ...); None: the default."
    )
    api_key_env: str | None = Field(
        None, description="Name of the environment variable holding the API key (never the key)."
    )
    price_input_per_mtok: StrictNumber | None = Field(
        None,
        ge=0,
        description="US dollars per million input tokens; None: from data/pricing.yaml.",
    )
    price_output_per_mtok: StrictNumber | None = Field(
        None,
        ge=0,
        description="US dollars per million output tokens; None: from data/pricing.yaml.",
    )
    price_per_hour: StrictNumber | None = Field(
        None,
        ge=0,
        exclude_if=lambda value: value is None,
        description="US dollars per hour of the machine serving a self-hosted model: each "
        "answer also costs its latency at this rate (so cost is never silently 0).",
    )
    extra: dict[str, Any] = Field(
        default_factory=dict, description="Extra keyword arguments for the client (e.g. logprobs)."
    )

    @field_validator("spec")
    @classmethod
    def _valid_spec(cls, value: str) -> str:
        provider, sep, name = value.partition(":")
        if not sep or not name or provider not in PROVIDERS:
            raise ValueError(
                f"model spec {value!r} must look like PROVIDER:NAME with PROVIDER one of "
                f"{', '.join(PROVIDERS.names())}"
            )
        return value

    @field_validator("api_key_env")
    @classmethod
    def _remember_key_env(cls, value: str | None) -> str | None:
        if value:  # its value is redacted from every stored or printed error
            from arena.secrets import register_secret_env

            register_secret_env(value)
        return value

    @field_validator("base_url")
    @classmethod
    def _remember_url_secrets(cls, value: str | None) -> str | None:
        from arena.secrets import register_url_secrets

        register_url_secrets(value)  # redacted from every stored or printed error
        return value

    @field_serializer("base_url", when_used="json")
    def _stored_url(self, value: str | None) -> str | None:
        # stored and reported without credentials (REDACTED); the live client gets it whole
        from arena.secrets import redact_url

        return None if value is None else redact_url(value)

    @property
    def provider(self) -> str:
        """The part of the spec before the colon."""
        return self.spec.partition(":")[0]

    @property
    def name(self) -> str:
        """The part of the spec after the colon."""
        return self.spec.partition(":")[2]

    def cache_identity(self) -> str:
        """What makes two model calls interchangeable: spec, sampling and what the provider
        adds (the endpoint; for local models the chat template, not the port), never keys."""
        from arena.models._fake_files import identity_of

        played = identity_of(self.spec)
        if played is not None:  # scripted replies never pass for the real model's
            return hashlib.sha256(f"played-by:{played}".encode()).hexdigest()[:16]
        ident = {
            "spec": self.spec,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "extra": self.extra,
            **PROVIDERS.lookup(self.provider).identity(self),
        }
        blob = json.dumps(ident, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

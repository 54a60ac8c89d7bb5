"""How a variant or a judge names and parameterises its chat model."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

PROVIDERS = ("local", "openai", "fake")
_TEMPLATE = Path(__file__).with_name("qwen_tools.jinja")


@functools.cache
def _local_template_hash() -> str:
    return hashlib.sha256(_TEMPLATE.read_bytes()).hexdigest()[:12]


class ModelConfig(BaseModel):
    """A chat model: a spec string plus sampling parameters and optional prices.

    Spec forms: ``local:qwen2.5-coder-1.5b`` (the embedded llama.cpp model),
    ``openai:MODEL`` (any OpenAI-compatible endpoint, with ``base_url`` and the name of the
    environment variable holding the key in ``api_key_env``), ``fake:NAME`` (scripted, tests).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    spec: str
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    max_tokens: int = Field(384, ge=1)
    timeout: float = Field(120.0, gt=0)
    base_url: str | None = None
    api_key_env: str | None = Field(
        None, description="Name of the environment variable holding the API key (never the key)."
    )
    price_input_per_mtok: float | None = Field(None, ge=0)
    price_output_per_mtok: float | None = Field(None, ge=0)
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
                f"{', '.join(PROVIDERS)}"
            )
        return value

    @property
    def provider(self) -> str:
        """The part of the spec before the colon."""
        return self.spec.partition(":")[0]

    @property
    def name(self) -> str:
        """The part of the spec after the colon."""
        return self.spec.partition(":")[2]

    def cache_identity(self) -> str:
        """What makes two model calls interchangeable: spec, sampling and endpoint, never keys.

        The local server's port changes every run, so it is not part of the identity; the chat
        template it renders prompts with is, so editing the template invalidates the cache.
        """
        ident = {
            "spec": self.spec,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "base_url": self.base_url if self.provider == "openai" else None,
            "extra": self.extra,
            "template": _local_template_hash() if self.provider == "local" else None,
        }
        blob = json.dumps(ident, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

"""The README's "Extending: a model provider" example, verbatim, really run.

The class below is what the README shows as ``arena/models/providers/ollama.py``; the
``register_provider`` call stands for its one registry line. A FaultServer on 127.0.0.1 plays
Ollama's OpenAI-compatible endpoint.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langchain_core.language_models import BaseChatModel

from arena.golden import GoldenDataset
from arena.models import ModelConfig, register_provider
from arena.models.providers import PROVIDERS
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.system


# --- README example starts -------------------------------------------------------------------
from arena.models.providers._base import Provider  # noqa: E402


class OllamaProvider(Provider):
    """``ollama:MODEL``: a local Ollama server through its OpenAI-compatible API."""

    name = "ollama"
    supports_logprobs = False  # logprobs/grades judges refuse it with a clear error

    def key_env(self, config: ModelConfig) -> str | None:
        return None  # Ollama needs no key

    def build(self, config: ModelConfig) -> BaseChatModel:
        from langchain_openai import ChatOpenAI

        from arena.models.providers._openai import http_clients

        return ChatOpenAI(
            model=config.name,
            api_key="ollama",
            base_url=config.base_url or "http://127.0.0.1:11434/v1",
            temperature=config.temperature,
            max_tokens=config.max_tokens,
            timeout=config.timeout,
            max_retries=0,
            **http_clients(config),
        )


# --- README example ends ---------------------------------------------------------------------


@pytest.fixture
def ollama() -> Iterator[FaultServer]:
    with PROVIDERS.scope(), FaultServer() as server:
        register_provider(OllamaProvider())  # = "ollama": "arena.models.providers.ollama:..."
        yield server


def test_the_readme_provider_runs_a_variant_end_to_end(ollama: FaultServer, store: Store) -> None:
    variant = Variant.model_validate(
        {
            "name": "llama",
            "model": {"spec": "ollama:llama3.2", "base_url": ollama.base_url, "timeout": 5},
        }
    )
    dataset = GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": ["calculate"],
            "test_cases": [{"id": "C-1", "input": "hello?", "category": "happy_path"}],
        }
    )
    report = run_suite(store, dataset, [variant], RunOptions(progress=False))
    (result,) = report.results
    assert result.error is None and result.output.startswith("llama3.2 answer: ")
    assert ollama.stats()["models"] == {"llama3.2": 1}
    again = run_suite(store, dataset, [variant], RunOptions(progress=False))
    assert again.model_calls == 0 and ollama.stats()["requests"] == 1
    assert PROVIDERS.lookup("ollama").supports_logprobs is False

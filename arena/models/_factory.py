"""One factory for every chat model: the spec's provider builds it (see arena.models.providers)."""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from arena.models._config import ModelConfig
from arena.models.providers import PROVIDERS


def make_chat_model(config: ModelConfig) -> BaseChatModel:
    """Build the raw chat model a ModelConfig names (no caching, no retries).

    ``local:`` starts (or reuses) the embedded llama.cpp server; ``openai:`` builds
    ``ChatOpenAI`` for any compatible endpoint; ``fake:`` plays a registered script; any other
    registered provider builds its own. A spec the active ``--fake-scripts`` file maps to a
    script is played by that script instead (arena.models._fake_files).

    Args:
        config: the model's spec and sampling parameters.

    Returns:
        A LangChain chat model.

    Raises:
        ModelError: the provider needs an API key whose environment variable is unset.
        InputError: the spec names no callable model (a person, answers read from files).
    """
    from arena.models._fake_files import played_by

    script = played_by(config.spec)
    if script is not None:
        from arena.models._fake import FakeChatModel

        return FakeChatModel(script=script)
    return PROVIDERS.lookup(config.provider).build(config)


def check_model(config: ModelConfig) -> None:
    """Fail before any call (InputError) if the model cannot be built, e.g. an unset API key
    variable. Never calls the model."""
    from arena.models._fake_files import played_by

    if played_by(config.spec) is None:
        PROVIDERS.lookup(config.provider).check(config)

"""Model providers behind one registry: built-ins, unknown names, registration, identities."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.errors import InputError, ModelError, NameTaken, UnknownName
from arena.models import (
    FakeChatModel,
    ModelConfig,
    Provider,
    check_model,
    make_chat_model,
    provider_names,
    register_fake,
    register_provider,
)
from arena.models.providers import PROVIDERS

pytestmark = pytest.mark.unit


@pytest.fixture
def registry() -> Iterator[None]:
    """Restore the provider registry after a test registers its own."""
    with PROVIDERS.scope():
        yield


def test_builtin_providers_are_registered() -> None:
    assert provider_names()[:4] == ("local", "openai", "langchain", "fake")
    for name in ("local", "openai", "fake"):
        provider = PROVIDERS.lookup(name)
        assert isinstance(provider, Provider) and provider.name == name
        assert provider.supports_logprobs is True


def test_unknown_provider_is_an_input_error_naming_kind_name_and_known() -> None:
    with pytest.raises(UnknownName, match=r"^unknown model provider 'azure'; known: ") as e:
        PROVIDERS.lookup("azure")
    assert e.value.known[:4] == ("local", "openai", "langchain", "fake")
    assert e.value.kind == "model provider"
    with pytest.raises(ValueError, match="PROVIDER:NAME with PROVIDER one of local, openai"):
        ModelConfig(spec="azure:gpt-4o")


def test_builtin_providers_build_their_models(monkeypatch: pytest.MonkeyPatch) -> None:
    register_fake("prov-hello", ["hi"])
    assert isinstance(
        PROVIDERS.lookup("fake").build(ModelConfig(spec="fake:prov-hello")), FakeChatModel
    )
    monkeypatch.setenv("PROV_KEY", "sk-prov-0123456789")
    config = ModelConfig(spec="openai:m", api_key_env="PROV_KEY", base_url="http://127.0.0.1:9/v1")
    model = PROVIDERS.lookup("openai").build(config)
    assert type(model).__name__ == "LeanChatOpenAI" and "sk-prov" not in repr(model)


def _old_identity(config: ModelConfig) -> str:
    """cache_identity as it was before providers had a registry (the cache must not move)."""
    template = Path(__file__).resolve().parents[2] / "arena" / "models" / "qwen_tools.jinja"
    ident = {
        "spec": config.spec,
        "temperature": config.temperature,
        "max_tokens": config.max_tokens,
        "base_url": config.base_url if config.provider == "openai" else None,
        "extra": config.extra,
        "template": (
            hashlib.sha256(template.read_bytes()).hexdigest()[:12]
            if config.provider == "local"
            else None
        ),
    }
    return hashlib.sha256(json.dumps(ident, sort_keys=True, default=str).encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    "config",
    [
        ModelConfig(spec="local:qwen2.5-coder-1.5b"),
        ModelConfig(spec="local:qwen2.5-coder-0.5b", temperature=0.7, base_url="http://x/v1"),
        ModelConfig(spec="openai:gpt-4o-mini"),
        ModelConfig(spec="openai:m", base_url="http://127.0.0.1:8/v1", extra={"logprobs": True}),
        ModelConfig(spec="fake:echo", base_url="http://ignored/v1", max_tokens=1),
    ],
)
def test_cache_identity_is_unchanged(config: ModelConfig) -> None:
    assert config.cache_identity() == _old_identity(config)


def test_check_model_fails_before_any_call_on_an_unset_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROV_UNSET_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(InputError, match="PROV_UNSET_KEY is not set") as e:
        check_model(
            ModelConfig(
                spec="openai:m", api_key_env="PROV_UNSET_KEY", base_url="http://127.0.0.1:9/v1"
            )
        )
    assert e.value.field == "model.api_key_env"
    with pytest.raises(InputError, match="OPENAI_API_KEY is not set"):
        check_model(ModelConfig(spec="openai:gpt-4o"))  # no base_url: OpenAI itself
    check_model(ModelConfig(spec="openai:m", base_url="http://127.0.0.1:9/v1"))  # no key needed
    check_model(ModelConfig(spec="fake:echo"))
    check_model(ModelConfig(spec="local:qwen2.5-coder-1.5b"))
    monkeypatch.setenv("PROV_UNSET_KEY", "sk-now-set-0123")
    check_model(ModelConfig(spec="openai:m", api_key_env="PROV_UNSET_KEY"))


class _Shout(Provider):
    name = "shout"

    def build(self, config: ModelConfig) -> FakeChatModel:
        register_fake(f"shout-{config.name}", [config.name.upper()], cycle=True)
        return FakeChatModel(script=f"shout-{config.name}")


def test_a_registered_provider_is_one_class_and_one_line(registry: None) -> None:
    with pytest.raises(ValueError, match="PROVIDER one of"):
        ModelConfig(spec="shout:hello")
    register_provider(_Shout())
    config = ModelConfig(spec="shout:hello")
    assert make_chat_model(config).invoke("hi").content == "HELLO"
    assert PROVIDERS.lookup("shout").supports_logprobs is False  # logprobs judges refuse it
    assert (
        config.cache_identity()
        != ModelConfig(spec="shout:hello", base_url="http://h/v1").cache_identity()
    )


def test_providers_register_by_import_path(registry: None) -> None:
    register_provider("tests.models.test_providers:_Shout", name="shout2")
    assert "shout2" in provider_names()
    assert isinstance(PROVIDERS.lookup("shout2"), _Shout)
    register_provider("collections:OrderedDict", name="notaprovider")
    with pytest.raises(TypeError, match=r"model provider 'notaprovider' must be a .*:Provider"):
        PROVIDERS.lookup("notaprovider")


def test_a_provider_named_like_a_builtin_is_refused_unless_replacing(registry: None) -> None:
    with pytest.raises(NameTaken, match=r"model provider 'openai' is registered already"):
        register_provider(_Shout(), name="openai")
    assert type(PROVIDERS.lookup("openai")).__name__ == "OpenAIProvider"
    register_provider(_Shout(), name="openai", replace=True)
    assert isinstance(PROVIDERS.lookup("openai"), _Shout)


def test_building_without_the_key_is_a_model_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOPE_KEY", raising=False)
    with pytest.raises(ModelError, match="NOPE_KEY is not set"):
        make_chat_model(ModelConfig(spec="openai:gpt-4o", api_key_env="NOPE_KEY"))

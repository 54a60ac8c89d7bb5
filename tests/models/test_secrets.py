"""Redaction of API keys from error text (arena.secrets)."""

from __future__ import annotations

import pytest

from arena.models import ModelConfig
from arena.secrets import MIN_SECRET_LEN, redact, redact_exception, redact_optional

pytestmark = pytest.mark.unit


def test_configured_and_well_known_keys_are_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_ODD_NAME", "k-configured-0001")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-0002")
    monkeypatch.setenv("LANGSMITH_API_KEY", "lsv2-0003-abc")
    monkeypatch.setenv("SOME_VENDOR_API_KEY", "vendor-0004-xyz")
    monkeypatch.setenv("NOT_A_SECRET", "plain-value-0005")
    text = "k-configured-0001 sk-openai-0002 lsv2-0003-abc vendor-0004-xyz plain-value-0005"
    before = redact(text)
    assert "k-configured-0001" in before  # not yet named by any model config
    ModelConfig(spec="openai:m", api_key_env="MY_ODD_NAME")
    after = redact(text)
    assert after == (
        "[MY_ODD_NAME redacted] [OPENAI_API_KEY redacted] "
        "[LANGSMITH_API_KEY redacted] [SOME_VENDOR_API_KEY redacted] "
        "plain-value-0005"
    )
    assert redact_optional(None) is None and redact("") == ""


def test_short_values_and_nested_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHORT_API_KEY", "x" * (MIN_SECRET_LEN - 1))
    monkeypatch.setenv("A_API_KEY", "abcdefgh")
    monkeypatch.setenv("B_API_KEY", "abcdefgh-longer")
    assert (
        redact("xxxxx abcdefgh-longer abcdefgh")
        == "xxxxx [B_API_KEY redacted] [A_API_KEY redacted]"
    )


def test_exceptions_are_redacted_in_place_with_their_causes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EXC_API_KEY", "sk-exception-0006")
    try:
        try:
            raise KeyError("inner sk-exception-0006")
        except KeyError as inner:
            raise RuntimeError("outer sk-exception-0006", 42) from inner
    except RuntimeError as exc:
        redact_exception(exc)
        assert str(exc) == "('outer [EXC_API_KEY redacted]', 42)"
        assert "sk-exception" not in str(exc.__cause__)

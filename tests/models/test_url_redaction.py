"""`arena.secrets.redact_url`: what a stored URL keeps, and `redact` on URLs inside text."""

from __future__ import annotations

import pytest

from arena.secrets import redact, redact_url

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("url", "stored"),
    [
        ("http://u:sk-1@host/v1?api-key=k&x=1", "http://REDACTED@host/v1?api-key=REDACTED&x=1"),
        ("https://ghp_abcdef@github.com/o/r", "https://REDACTED@github.com/o/r"),
        ("https://h/v1?Access-Token=a;sig=b#token=c", "https://h/v1?Access-Token=REDACTED;sig=REDACTED#token=REDACTED"),
        ("https://h/p?X-Amz-Signature=s&x-goog-api_key=g", "https://h/p?X-Amz-Signature=REDACTED&x-goog-api_key=REDACTED"),
        ("http://localhost:11434/v1", "http://localhost:11434/v1"),
        ("https://h/p?page=2&q=key", "https://h/p?page=2&q=key"),
        ("http://REDACTED@h/v1?key=REDACTED", "http://REDACTED@h/v1?key=REDACTED"),
        ("http://[::1/v1?token=t", "REDACTED"),
    ],
)  # fmt: skip
def test_a_stored_url_keeps_no_credential(url: str, stored: str) -> None:
    assert redact_url(url) == stored


def test_redact_strips_urls_in_text_and_finds_a_key_in_any_case(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ARENA_URL_TEST_API_KEY", "sk-MixedCase-998877")
    text = "GET https://x:y@h/v1?token=zz failed: key SK-MIXEDCASE-998877 / sk-mixedcase-998877"
    assert redact(text) == (
        "GET https://REDACTED@h/v1?token=REDACTED failed: key "
        "[ARENA_URL_TEST_API_KEY redacted] / [ARENA_URL_TEST_API_KEY redacted]"
    )

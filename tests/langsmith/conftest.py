"""Fixtures of the LangSmith tests: a recording LangSmith look-alike on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.langsmith.fake_langsmith import FakeLangSmith


@pytest.fixture
def fake_langsmith() -> Iterator[FakeLangSmith]:
    """A fresh server; stopped after the test."""
    server = FakeLangSmith().start()
    yield server
    server.stop()


@pytest.fixture
def langsmith_env(fake_langsmith: FakeLangSmith, monkeypatch: pytest.MonkeyPatch) -> FakeLangSmith:
    """LangSmith configured to talk to the fake server (never to the hosted service)."""
    monkeypatch.setenv("LANGSMITH_API_KEY", "lsv2-test-key-not-a-secret")
    monkeypatch.setenv("LANGSMITH_ENDPOINT", fake_langsmith.url)
    monkeypatch.delenv("LANGCHAIN_API_KEY", raising=False)
    monkeypatch.delenv("LANGCHAIN_ENDPOINT", raising=False)
    monkeypatch.delenv("LANGSMITH_TRACING", raising=False)
    monkeypatch.delenv("LANGCHAIN_TRACING_V2", raising=False)
    return fake_langsmith

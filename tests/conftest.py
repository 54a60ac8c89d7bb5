"""Shared fixtures: an isolated cache and database per test, scripted fake models."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.paths import data_dir


@pytest.fixture(autouse=True)
def _isolated_env(request: pytest.FixtureRequest, tmp_path: Path,
                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep sandboxes out of the user's cache, and retries instant in unit tests."""
    if request.node.get_closest_marker("integration") is None:
        monkeypatch.setenv("ARENA_RETRY_DELAY", "0")
    monkeypatch.delenv("ARENA_DB_URL", raising=False)
    monkeypatch.setenv("ARENA_SANDBOX_DIR", str(tmp_path / "sandboxes"))


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'arena.db'}"


@pytest.fixture
def store(db_url: str):  # type: ignore[no-untyped-def]
    """A Store on a fresh SQLite database."""
    from arena.storage import Store

    return Store(db_url)


@pytest.fixture
def golden_path() -> Path:
    """The shipped golden dataset."""
    return data_dir() / "golden" / "research_agent.json"


@pytest.fixture
def variants_dir() -> Path:
    """The shipped variants."""
    return data_dir() / "variants"


@pytest.fixture(scope="session")
def local_db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One database for every test on the real local model, so they share its cache."""
    return f"sqlite:///{tmp_path_factory.mktemp('local') / 'arena.db'}"

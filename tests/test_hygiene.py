"""Project-wide promises: API keys never stored, `import arena` stays light."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.golden import GoldenDataset
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

SECRET = "sk-test-must-never-be-stored-0123456789"


def test_api_keys_never_reach_the_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_TEST_KEY", SECRET)
    monkeypatch.setenv("ARENA_RETRIES", "2")
    db = tmp_path / "arena.db"
    variant = Variant.model_validate(
        {
            "name": "remote",
            "model": {
                "spec": "openai:gpt-4o-mini",
                "api_key_env": "ARENA_TEST_KEY",
                "base_url": "http://127.0.0.1:9/v1",
                "timeout": 2,
            },
        }
    )
    dataset = GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": ["calculate"],
            "test_cases": [{"id": "C", "input": "hi", "category": "happy_path"}],
        }
    )
    report = run_suite(Store(f"sqlite:///{db}"), dataset, [variant], RunOptions(progress=False))
    assert report.results[0].error and "Connection" in report.results[0].error
    for path in tmp_path.glob("arena.db*"):
        assert SECRET.encode() not in path.read_bytes()
    assert SECRET not in report.model_dump_json()


def test_import_arena_is_light() -> None:
    code = (
        "import sys, arena; heavy = [m for m in ('langchain_core', 'langgraph', 'sqlalchemy', "
        "'numpy', 'scipy', 'streamlit') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"

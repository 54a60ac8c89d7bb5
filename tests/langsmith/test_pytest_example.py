"""docs/pytest-example in a user's repository (a copy in a temporary folder), run by a real
pytest subprocess: without LangSmith's plugin, with it but unconfigured, and with it talking to
the recording LangSmith look-alike."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.langsmith.fake_langsmith import FakeLangSmith

pytestmark = pytest.mark.system
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "pytest-example"
CASES = [
    {
        "id": "OK-1",
        "input": "Say hello",
        "category": "happy_path",
        "tier": "critical",
        "expected_output_contains": ["hello"],
    },
    {
        "id": "FAIL-1",
        "input": "What is 2+2?",
        "category": "happy_path",
        "tier": "critical",
        "expected_output_contains": ["4"],
    },
    {
        "id": "STD-1",
        "input": "Name a colour",
        "category": "edge_case",
        "expected_output_contains": ["blue"],
    },
    {
        "id": "PEND-1",
        "input": "Name a fruit",
        "category": "edge_case",
        "tier": "pending",
        "expected_output_contains": ["apple"],
    },
]
OUTCOME = {"failed": 1, "passed": 2, "xfailed": 1}


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "user-repo"
    (repo / "tests").mkdir(parents=True)
    for name in ("conftest.py", "test_golden.py"):
        shutil.copy(EXAMPLE / name, repo / "tests" / name)
    (repo / "golden.json").write_text(
        json.dumps({"name": "echo-golden", "available_tools": [], "test_cases": CASES})
    )
    (repo / "echo.yaml").write_text("name: echo\nmodel: {spec: 'fake:echo'}\ntools: []\n")
    return repo


def _pytest(repo: Path, extra_env: dict[str, str], *args: str) -> tuple[dict[str, int], str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("LANGSMITH_", "LANGCHAIN_", "PYTEST_"))
    }
    env.update(
        {
            "ARENA_DATASET": "golden.json",
            "ARENA_VARIANT": "echo.yaml",
            "ARENA_TIER": "all",
            "ARENA_SANDBOX_DIR": str(repo / "sandboxes"),
            **extra_env,
        }
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-W",
            "ignore::DeprecationWarning",
            "tests",
            *args,
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    counts = {
        m.group(2): int(m.group(1))
        for m in re.finditer(r"(\d+) (failed|passed|xfailed|error)", proc.stdout)
    }
    return counts, proc.stdout + proc.stderr


def test_without_the_langsmith_plugin(tmp_path: Path) -> None:
    counts, out = _pytest(_repo(tmp_path), {}, "-p", "no:langsmith_plugin")
    assert counts == OUTCOME, out
    assert "critical case FAIL-1 fails" in out and "happy-path case FAIL-1 fails" in out
    assert "GoldenCaseWarning: standard case STD-1 fails" in out


def test_with_the_plugin_but_langsmith_unconfigured(tmp_path: Path) -> None:
    counts, out = _pytest(_repo(tmp_path), {})
    assert counts == OUTCOME, out


def test_with_the_plugin_recording_to_langsmith(
    tmp_path: Path, fake_langsmith: FakeLangSmith
) -> None:
    env = {
        "LANGSMITH_API_KEY": "lsv2-test-key",
        "LANGSMITH_ENDPOINT": fake_langsmith.url,
        "LANGSMITH_TRACING": "true",
        "LANGSMITH_TEST_SUITE": "arena-golden",
    }
    counts, out = _pytest(_repo(tmp_path), env)
    assert counts == OUTCOME, out
    (suite,) = fake_langsmith.datasets.values()
    assert suite["name"] == "arena-golden"
    examples = {e["inputs"]["case_id"]: e for e in fake_langsmith.examples.values()}
    assert set(examples) == {c["id"] for c in CASES}
    assert examples["OK-1"]["inputs"]["query"] == "Say hello"
    assert examples["FAIL-1"]["outputs"]["expected_output_contains"] == ["4"]
    runs = {
        r.get("reference_example_id"): r
        for r in fake_langsmith.runs().values()
        if r.get("name") == "test_golden_case"
    }
    feedback: dict[str, dict[str, float]] = {}
    for body in fake_langsmith.feedback():
        feedback.setdefault(str(body["run_id"]), {})[body["key"]] = body["score"]
    by_case = {cid: feedback[str(runs[e["id"]]["id"])] for cid, e in examples.items()}
    assert by_case["OK-1"]["golden_pass"] == 1.0 and by_case["OK-1"]["golden_score"] == 1.0
    assert by_case["FAIL-1"]["golden_pass"] == 0.0 and by_case["FAIL-1"]["pass"] == 0
    assert runs[examples["OK-1"]["id"]]["outputs"]["output"] == "You said: Say hello"

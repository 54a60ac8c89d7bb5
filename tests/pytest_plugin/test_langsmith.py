"""``pytest --arena`` with LangSmith's pytest plugin off, on but unconfigured, and on and
recording to the LangSmith look-alike (what docs/pytest-example did before the plugin)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.langsmith.fake_langsmith import FakeLangSmith
from tests.pytest_plugin.team_repo import CASES, make_repo, run_pytest

pytestmark = pytest.mark.system
FLAGS = [
    "--arena",
    "--arena-dataset",
    "golden.json",
    "--arena-variant",
    "echo.yaml",
    "--arena-tier",
    "all",
    "--arena-db",
    "arena.db",
    "golden.json",
]
OUTCOME = {"failed": 1, "passed": 2, "xfailed": 1}


def _counts(counts: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if not k.startswith("warning")}


def test_with_the_langsmith_plugin_unconfigured(tmp_path: Path) -> None:
    """The same outcome as with LangSmith's plugin off (every test of test_plugin.py runs
    with ``-p no:langsmith_plugin``; test_each_case_is_a_test_named_by_its_id_under_the_gates_rules
    checks these counts there)."""
    _, counts, out = run_pytest(make_repo(tmp_path), *FLAGS)
    assert _counts(counts) == OUTCOME, out


def test_with_the_langsmith_plugin_recording(tmp_path: Path, fake_langsmith: FakeLangSmith) -> None:
    env = {
        "LANGSMITH_API_KEY": "lsv2-test-key",
        "LANGSMITH_ENDPOINT": fake_langsmith.url,
        "LANGSMITH_TRACING": "true",
        "LANGSMITH_TEST_SUITE": "arena-golden",
    }
    _, counts, out = run_pytest(make_repo(tmp_path), *FLAGS, env=env)
    assert _counts(counts) == OUTCOME, out
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

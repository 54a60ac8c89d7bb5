"""A team's own repository using ``pytest --arena``: a golden set, variants on scripted
models, its own unit test, run by a real pytest subprocess."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

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
CONFTEST = """
from arena.models import register_fake

register_fake("silent", ["I cannot say."], cycle=True)
"""
UNIT_TEST = "def test_the_teams_own_unit_test():\n    assert 1 + 1 == 2\n"


def make_repo(root: Path, cases: list[dict[str, object]] = CASES) -> Path:
    """The repository: golden.json, echo.yaml (fake:echo), silent.yaml, a unit test."""
    repo = root / "team-repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "test_unit.py").write_text(UNIT_TEST)
    (repo / "conftest.py").write_text(CONFTEST)
    write_cases(repo, cases)
    (repo / "echo.yaml").write_text("name: echo\nmodel: {spec: 'fake:echo'}\ntools: []\n")
    (repo / "silent.yaml").write_text("name: silent\nmodel: {spec: 'fake:silent'}\ntools: []\n")
    return repo


def write_cases(repo: Path, cases: list[dict[str, object]]) -> None:
    """(Re)write the golden set."""
    body = {"name": "team-golden", "available_tools": [], "test_cases": cases}
    (repo / "golden.json").write_text(json.dumps(body, indent=2))


def _plugin_args() -> list[str]:
    """``-p arena.pytest_plugin`` where the package is not installed with its entry point
    (a source checkout on PYTHONPATH); nothing where it is (CI, the wheel)."""
    installed = any(e.name == "arena" for e in entry_points(group="pytest11"))
    return [] if installed else ["-p", "arena.pytest_plugin"]


def run_pytest(
    repo: Path,
    *args: str,
    env: dict[str, str] | None = None,
    python: str | Path = sys.executable,
    base_env: dict[str, str] | None = None,
) -> tuple[int, dict[str, int], str]:
    """``pytest ARGS`` in the repository with ``python`` (default: this interpreter, the
    plugin loaded from the checkout when it is not installed): exit code, outcome counts,
    the output."""
    clean = {
        k: v
        for k, v in (base_env if base_env is not None else os.environ).items()
        if not k.startswith(("LANGSMITH_", "LANGCHAIN_", "PYTEST_", "ARENA_DB"))
    }
    clean.update({"ARENA_SANDBOX_DIR": str(repo / "sandboxes"), **(env or {})})
    plugin = _plugin_args() if str(python) == sys.executable else []
    proc = subprocess.run(
        [
            str(python),
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rA",
            "-W",
            "ignore::DeprecationWarning",
            *plugin,
            *args,
        ],
        cwd=repo,
        env=clean,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = proc.stdout + proc.stderr
    summary = out.strip().splitlines()[-1] if out.strip() else ""
    counts = {
        m.group(2): int(m.group(1))
        for m in re.finditer(r"(\d+) (failed|passed|xfailed|xpassed|errors?|warnings?)", summary)
    }
    return proc.returncode, counts, out

"""`arena run --timeout 5` with one case calling a hostile calculator expression: every other
case still finishes (real subprocess). Before the calculator's bounds, the synchronous tool
held the GIL inside C code, no timeout could fire, and the run produced nothing."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.agents.hostile_agents import HOSTILE_EXPRESSION
from tests.support.cli_args import arena_command, run_argv

pytestmark = pytest.mark.system
ROOT = Path(__file__).resolve().parents[2]
CASES = 6


def hostile_run_files(tmp_path: Path) -> tuple[Path, Path]:
    """A variant whose calculator gets one hostile expression, and its dataset of six cases
    (benchmarks/bounded_work.py times the run)."""
    variant = tmp_path / "calc.yaml"
    variant.write_text(
        "name: calc\nagent: tests.agents.hostile_agents:react_calculator\n"
        "model: {spec: 'fake:hostile-calc'}\nmax_steps: 2\n"
    )
    cases = [
        {
            "id": f"C-{i}",
            "input": ("HOSTILE " if i == 2 else "") + f"what is 6*7? ({i})",
            "category": "happy_path",
            "tier": "critical",
        }
        for i in range(CASES)
    ]
    dataset = tmp_path / "golden.json"
    dataset.write_text(
        json.dumps({"name": "hostile", "available_tools": ["calculate"], "test_cases": cases})
    )
    return variant, dataset


def test_a_hostile_calculation_does_not_stop_the_run(tmp_path: Path) -> None:
    variant, dataset = hostile_run_files(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ARENA_SANDBOX_DIR": str(tmp_path / "sb")}
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    args = arena_command(
        *run_argv(variant, dataset, db, "--timeout", "5", "--concurrency", "2", "--json")
    )
    proc = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("the run froze: a calculator call blocked every case")
    assert proc.returncode == 0, err
    report = json.loads(out)
    results = {r["case_id"]: r for r in report["results"]}
    assert len(results) == CASES and all(r["error"] is None for r in results.values())
    for case_id, result in results.items():
        (call,) = result["tool_calls"]
        if case_id == "C-2":
            assert call["args"] == {"expression": HOSTILE_EXPRESSION}
            assert result["output"].startswith("Result: Error: round() digits")
        else:
            assert result["output"] == "Result: 42"

"""A closed pipe ends a command quietly: ``arena agree A B --json | head`` prints no
BrokenPipeError traceback (a real subprocess pipe, closed by its reader)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.system


def _votes(path: Path, judges: list[str]) -> Path:
    rows = [
        {
            "question_id": q,
            "model_a": "x",
            "model_b": "y",
            "winner": "model_a" if (q + j) % 3 else "model_b",
            "judge": judge,
        }
        for q in range(4)
        for j, judge in enumerate(judges)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _arena(*argv: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.Popen(
        [sys.executable, "-m", "arena.cli", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def test_agree_json_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    # 30 x 30 judge groups: about 400 kB of JSON, far more than a pipe buffers.
    first = _votes(tmp_path / "a.jsonl", [f"a{i}" for i in range(30)])
    second = _votes(tmp_path / "b.jsonl", [f"b{i}" for i in range(30)])
    process = _arena("agree", str(first), str(second), "--json")
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().strip() == b"["  # it is writing
    process.stdout.close()  # the reader goes away, as `| head -1` does
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141, stderr
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
    assert stderr == ""

"""``pytest --arena`` in a team's own repository with agent-arena installed from the wheel:
the plugin comes from the wheel's ``pytest11`` entry point (nothing of the checkout on the
path), runs the golden set, a second session sends no model call, and a broken critical case
fails its test and the session verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.packaging.conftest import WheelEnv
from tests.pytest_plugin.team_repo import CASES, make_repo, run_pytest, write_cases

pytestmark = pytest.mark.packaging


def test_pytest_arena_from_the_wheel(wheel_env: WheelEnv, empty_dir: Path) -> None:
    wheel_env.run(empty_dir, wheel_env.python, "-m", "pip", "install", "--quiet", "pytest")
    cases = [c for c in CASES if c["id"] != "FAIL-1"]
    repo = make_repo(empty_dir, cases)
    flags = ["--arena", "--arena-dataset", "golden.json", "--arena-variant", "echo.yaml",
             "--arena-tier", "all", "--arena-db", "arena.db"]  # fmt: skip
    env = wheel_env.env()

    def pytest_(*args: str) -> tuple[int, dict[str, int], str]:
        return run_pytest(repo, *flags, *args, python=wheel_env.python, base_env=env)

    code, counts, out = pytest_()
    assert code == 0 and counts["passed"] == 3 and counts["xfailed"] == 1, out
    assert "3 model call(s) sent" in out or "4 model call(s) sent" in out, out
    code, _, out = pytest_()
    assert code == 0 and "0 model call(s) sent" in out, out
    wheel_env.run(repo, wheel_env.arena, "baseline", "save", "echo", "--export", "base.json",
                  "--db", "sqlite:///arena.db")  # fmt: skip
    assert json.loads((repo / "base.json").read_text())["name"]
    broken = [{**c, "input": "Say nothing"} if c["id"] == "OK-1" else c for c in cases]
    write_cases(repo, broken)
    code, counts, out = pytest_("--arena-baseline", "base.json")
    assert code == 1 and counts["failed"] == 1, out
    assert "critical case OK-1 fails" in out
    verdict = out.split("agent-arena")[-1]
    assert "OK-1" in verdict, verdict

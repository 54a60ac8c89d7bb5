"""Factories import from the project: the variant's folder tree (up to the project root) and
arena.yaml's folder, with no PYTHONPATH; a missing module is exit 2 naming the variant file
and what to do, before anything runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.system  # real `arena` subprocesses, as a user runs them

REPO = Path(__file__).resolve().parents[2]
FACTORY = """
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda


def build(ctx):
    async def run(state):
        return {"messages": [*state["messages"], AIMessage("from my own package")]}

    return RunnableLambda(run)
"""


def _project(root: Path, package: str, marker: str = "arena.yaml") -> Path:
    (root / package).mkdir(parents=True)
    (root / package / "__init__.py").write_text("")
    (root / package / "agent.py").write_text(FACTORY)
    (root / marker).write_text("" if marker != "arena.yaml" else "report_dir: reports\n")
    (root / "golden.json").write_text(
        json.dumps(
            {
                "name": "p",
                "available_tools": [],
                "test_cases": [{"id": "P-1", "input": "hi", "category": "happy_path"}],
            }
        )
    )
    variants = root / "config" / "variants"
    variants.mkdir(parents=True)
    (variants / "mine.yaml").write_text(
        f"name: mine\nagent: {package}.agent:build\nmodel: {{spec: 'fake:echo'}}\n"
    )
    return variants / "mine.yaml"


def _arena(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(REPO)  # agent-arena itself; never the user's project
    return subprocess.run(
        [sys.executable, "-m", "arena.cli", *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("marker", ["arena.yaml", "pyproject.toml"])
def test_a_factory_beside_the_project_root_imports_without_pythonpath(
    tmp_path: Path, marker: str
) -> None:
    root = tmp_path / "project"
    variant = _project(root, f"pkg_{marker.split('.')[0]}", marker)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    done = _arena(
        elsewhere, "run", "--json", "--variants", str(variant), "--dataset",
        str(root / "golden.json"), "--db", db,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (result,) = json.loads(done.stdout)["results"]
    assert result["output"] == "from my own package" and result["error"] is None


def test_a_missing_module_is_exit_2_naming_the_variant_file_before_anything_runs(
    tmp_path: Path,
) -> None:
    variant = _project(tmp_path, "present_pkg")
    variant.write_text("name: mine\nagent: absent_pkg.agent:build\nmodel: {spec: 'fake:echo'}\n")
    db = tmp_path / "arena.db"
    for command in ("plan", "run"):
        done = _arena(
            tmp_path, command, "--variants", str(variant), "--dataset",
            str(tmp_path / "golden.json"), "--db", f"sqlite:///{db}",
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert f"file {variant}" in done.stderr and "field agent" in done.stderr
        assert "no module named 'absent_pkg'" in done.stderr
        assert "pip install -e ." in done.stderr and str(tmp_path) in done.stderr
        assert "Traceback" not in done.stderr
    assert not db.exists()

"""Factories import from the project: the variant's folder tree (up to the project root) and
arena.yaml's folder, with no PYTHONPATH; a missing module is exit 2 naming the variant file
and what to do, before anything runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def _script_arena(cwd: Path, variant: Path, golden: Path, db: Path) -> Any:
    """`arena run` as the console script runs it: ``-P`` keeps the working directory off
    sys.path (``python -m`` would put it first and hide what the lookup does)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "-P", "-m", "arena.cli", "run", "--json", "--variants", str(variant),
         "--dataset", str(golden), "--db", f"sqlite:///{db}"],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (result,) = json.loads(done.stdout)["results"]
    assert result["error"] is None, result["error"]
    return result["output"]


@pytest.mark.parametrize("where", ["cwd", "cwd/src", "project/src"])
def test_a_factory_in_the_working_directory_or_a_src_folder_imports(
    tmp_path: Path, where: str
) -> None:
    project = tmp_path / "project"
    variant = _project(project, "placeholder", "pyproject.toml")
    package = f"pkg_{where.replace('/', '_')}"
    cwd = tmp_path / "work"  # no arena.yaml, no pyproject.toml: only the working directory
    home = {"cwd": cwd, "cwd/src": cwd / "src", "project/src": project / "src"}[where]
    (home / package).mkdir(parents=True)
    (home / package / "__init__.py").write_text("")
    (home / package / "agent.py").write_text(FACTORY)
    cwd.mkdir(exist_ok=True)
    variant.write_text(f"name: mine\nagent: {package}.agent:build\nmodel: {{spec: 'fake:echo'}}\n")
    output = _script_arena(cwd, variant, project / "golden.json", tmp_path / "arena.db")
    assert output == "from my own package"


def test_a_local_module_never_shadows_an_installed_package(tmp_path: Path) -> None:
    import yaml

    cwd = tmp_path / "work"
    (cwd / "src").mkdir(parents=True)
    for shadow in (cwd / "yaml.py", cwd / "src" / "yaml.py"):  # named like an installed one
        shadow.write_text("raise RuntimeError('the local yaml.py shadowed the installed one')\n")
    (cwd / "mine").mkdir()
    (cwd / "mine" / "__init__.py").write_text("")
    (cwd / "mine" / "agent.py").write_text(
        FACTORY.replace('"from my own package"', "yaml.__file__").replace(
            "from langchain_core", "import yaml\nfrom langchain_core", 1
        )
    )
    variant = _project(tmp_path / "project", "placeholder")
    variant.write_text("name: mine\nagent: mine.agent:build\nmodel: {spec: 'fake:echo'}\n")
    output = _script_arena(cwd, variant, tmp_path / "project" / "golden.json", tmp_path / "db")
    assert output == yaml.__file__

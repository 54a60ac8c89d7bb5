"""`arena gate` on a cached database after an edit to the team's own agent code (issue 25,
problem 1): the gate runs the edited agent and fails what broke. Before, the version hashed only
the variant file: the gate resumed, reused every stored answer and passed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.cli import main
from tests.support.shop_project import Project, shop_project

pytestmark = pytest.mark.unit


@pytest.fixture
def shop(tmp_path: Path) -> Iterator[Project]:
    yield from shop_project(tmp_path)


def _dataset(root: Path) -> Path:
    case = {
        "id": "S-1",
        "input": "Where is my order?",
        "category": "happy_path",
        "tier": "critical",
        "expected_output_contains": ["2 days"],
    }
    path = root / "golden.json"
    path.write_text(
        json.dumps({"name": "shop", "available_tools": ["lookup_order"], "test_cases": [case]})
    )
    return path


def _gate(project: Project, db: str, dataset: Path) -> tuple[int, dict[str, object]]:
    reports = project.root / "reports"
    argv = ["gate", "--baseline", str(project.root / "base.json"), "--candidate"]
    argv += [str(project.variant_file), "--dataset", str(dataset), "--judge", "none"]
    code = main([*argv, "--tier", "critical", "--report-dir", str(reports), "--db", db])
    return code, json.loads((reports / "gate.json").read_text())


def test_an_agent_code_edit_is_run_by_the_gate_not_reused(shop: Project, db_url: str) -> None:
    project = shop
    dataset = _dataset(project.root)
    assert main(["run", "--variants", str(project.variant_file), "--dataset", str(dataset),
                 "--db", db_url]) == 0  # fmt: skip
    export = ["baseline", "save", "shop", "--export", str(project.root / "base.json")]
    assert main([*export, "--db", db_url]) == 0
    assert _gate(project, db_url, dataset)[0] == 0

    project.edit(f"{project.common}/faq.py", "2 days", "3 days")  # the agent's shared package
    project.forget_modules()  # a new process would import the edited code
    code, report = _gate(project, db_url, dataset)
    assert code == 1 and report["passed"] is False
    assert report["version_changes"] == [f"agent code changed: {project.common}/faq.py"]
    assert any("S-1" in str(f) for f in report["failures"])  # type: ignore[union-attr]

"""The gate fails when only a file the agent imports dynamically changed, even with its
database kept from the passing run, as CI caches it (trial 2, critical finding: same version,
results reused, exit 0)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.cli import main
from tests.support.dynamic_project import DynamicProject, dynamic_project

pytestmark = pytest.mark.unit

DATASET = {
    "name": "shop",
    "available_tools": [],
    "test_cases": [
        {
            "id": "S-1",
            "input": "Where is my refund?",
            "category": "happy_path",
            "tier": "critical",
            "expected_output_contains": ["5 days"],
        }
    ],
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[DynamicProject]:
    for made in dynamic_project(tmp_path / "proj"):
        made.write("golden/shop.json", json.dumps(DATASET))
        made.write(
            "arena.yaml",
            "baseline: baselines/dyn.json\ncandidate: dyn\n"
            "run: {dataset: golden/shop.json, variants_dir: variants, tier: critical}\n"
            "compare: {judge: none}\nreport_dir: reports\n",
        )
        monkeypatch.chdir(made.root)
        yield made


def test_the_gate_fails_after_an_edit_to_a_dynamically_imported_file(
    project: DynamicProject,
) -> None:
    db = ["--db", f"sqlite:///{project.root / 'arena.db'}"]
    run = ["run", "--variants", "variants/dyn.yaml", "--dataset", "golden/shop.json"]
    assert main([*run, "--tier", "critical", *db]) == 0
    assert main(["baseline", "save", "dyn", "--export", "baselines/dyn.json", *db]) == 0
    assert main(["gate", *db]) == 0
    project.edit(project.policy, "5 days", "never, sorry")  # the case now fails
    project.forget_policy()  # as the next CI job, a new process, would import it
    assert main(["gate", *db]) == 1  # before: 0, the old answer reused under the same version
    report = (project.root / "reports" / "gate.md").read_text(encoding="utf-8")
    assert f"agent code changed: {project.policy}" in report

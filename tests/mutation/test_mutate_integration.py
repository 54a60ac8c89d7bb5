"""A mutation pass of the Research Agent on the real local model: a few critical cases, the
``tool_raises`` mutants only. The tool a case relies on raising kills its mutant, and the
Markdown report is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.paths import data_dir

pytestmark = pytest.mark.integration


def test_a_mutation_pass_on_the_local_model_kills_a_mutant(
    local_db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "mutate.md"
    code = main(
        [
            "mutate",
            "--variant", str(data_dir() / "variants" / "baseline.yaml"),
            "--dataset", str(data_dir() / "golden" / "research_agent.json"),
            "--cases", "HP-003,HP-001",
            "--operators", "tool_raises",
            "--timeout", "900",  # CI's two cores are shared: a slow reply is no failure here
            "--db", local_db_url,
            "--report", str(report),
            "--json",
        ]
    )  # fmt: skip
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    killed = {m["id"]: m["killed_by"] for m in doc["mutants"] if m["killed"]}
    assert killed, doc["mutants"]
    assert all(set(cases) <= {"HP-003", "HP-001"} for cases in killed.values()), killed
    text = report.read_text()
    assert text.startswith("# Mutation score:") and next(iter(killed)) in text

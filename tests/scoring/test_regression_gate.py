"""The merge gate on the real local model, against the committed baseline
(``baselines/baseline.json``: the ``baseline`` variant on the critical tier with repeats, saved
with ``arena baseline save baseline --export``).

* A deliberately degraded prompt (``broken-no-tools``: it forbids tool use) fails
  ``arena gate`` with exit 1, and the report names the broken cases and why.
* The unchanged prompt passes the gate on three consecutive fresh runs (a new database each
  time, so every answer is asked of the model again) with repeats: no flapping.

To stay within a few minutes on 2 cores the runs keep to two critical cases with two repeats
(``--cases``). The degraded prompt runs HP-001, which needs a web search (the local model still
calls the calculator on HP-003 when told not to use tools), beside GF-003, which needs no tool
and must not be reported broken; the fresh runs use HP-003 and GF-003. ``critical_missing``
(critical cases not run) is therefore left out of the blocking rules here; the shipped
workflow runs the whole critical tier.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main

pytestmark = [pytest.mark.regression, pytest.mark.integration]

REPO = Path(__file__).resolve().parents[2]
BASELINE = REPO / "baselines" / "baseline.json"
#: The flapping check leaves out HP-001, the slowest case (two minutes a repeat on a loaded
#: machine): three fresh runs of these still ask the model every answer three times.
STABLE_CASES = "HP-003,GF-003"
BROKEN_CASES = "HP-001,GF-003"
BLOCK = "suite_drop,critical_broken,happy_path_fail,category_broken"


def _gate(tmp: Path, candidate: str, db: str, cases: str) -> tuple[int, Any, str]:
    """`arena gate` on the local model; the pairwise judge is left out to save minutes (the
    judge on the local model is covered by the integration tests)."""
    reports = tmp / "reports"
    code = main(
        [
            "gate",
            "--baseline",
            str(BASELINE),
            "--candidate",
            candidate,
            "--tier",
            "critical",
            "--cases",
            cases,
            "--repeats",
            "2",
            "--block",
            BLOCK,
            "--judge",
            "none",
            "--concurrency",
            "1",
            "--report-dir",
            str(reports),
            "--db",
            db,
            "--json",
        ]
    )
    return code, json.loads((reports / "gate.json").read_text()), (reports / "gate.md").read_text()


def test_the_unchanged_prompt_passes_three_fresh_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for attempt in range(3):
        folder = tmp_path / f"run{attempt}"
        folder.mkdir()
        code, doc, md = _gate(folder, "baseline", f"sqlite:///{folder / 'arena.db'}", STABLE_CASES)
        capsys.readouterr()
        assert code == 0, md
        assert doc["regression"]["broken_cases"] == [] or all(
            r["severity"] != "block" for r in doc["regression"]["reasons"]
        ), md
        assert len(doc["regression"]["compared_cases"]) == 2


def test_a_prompt_that_forbids_tools_fails_the_gate_and_says_why(
    local_db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc, md = _gate(tmp_path, "broken-no-tools", local_db_url, BROKEN_CASES)
    capsys.readouterr()
    assert code == 1, md
    regression = doc["regression"]
    blocking = [r for r in regression["reasons"] if r["severity"] == "block"]
    broken = {r["case_id"] for r in blocking if r["case_id"]}
    assert broken == {"HP-001"}, md
    for reason in blocking:
        if reason["case_id"]:
            assert reason["kind"] in ("trajectory", "output", "behavior", "error"), reason
            assert reason["check"], reason
    # the answers lack what the tools would have found, and the report names the missed call
    assert any("was never called" in r["check"] for r in blocking if r["check"])
    for case in broken:
        assert f"`{case}`" in md
    assert "Why cases broke" in md and "**Why it failed:**" in md

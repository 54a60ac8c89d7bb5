"""``arena golden add --from-shadow RUN --cases ...``: lost traces become pending cases with
production's answer as the reference and the trace id as provenance."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.cli import main
from arena.cli.common import default_dataset
from arena.golden import load_dataset
from tests.production.helpers import trace_rows, write_jsonl
from tests.production.scripted import register_models, variant_file

pytestmark = pytest.mark.system  # end to end through the CLI, on scripted models


def _lost_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    register_models()
    rows = trace_rows(4, answer="GOOD answer")
    rows[3]["answer"] = "meh"  # the candidate ties this one (neither answer is GOOD)
    traces = write_jsonl(tmp_path / "prod.jsonl", rows)
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    argv = ["shadow", "--traces", traces, "--candidate", variant_file(tmp_path, "c", "worse"),
            "--judge", "fake:prefers-good/text", "--db", db, "--json"]  # fmt: skip
    assert main(argv) == 0
    assert len(json.loads(capsys.readouterr().out)["losses"]) == 3
    return db


def test_the_losses_become_pending_cases_with_production_s_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _lost_run(tmp_path, capsys)
    dataset = tmp_path / "golden.json"
    shutil.copy(default_dataset(), dataset)
    before = load_dataset(dataset)
    argv = ["golden", "add", "--from-shadow", "1", "--cases", "losses", "--dataset",
            str(dataset), "--reason", "lost to production", "--db", db]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    after = load_dataset(dataset)
    new = [c for c in after.test_cases if c.id not in {b.id for b in before.test_cases}]
    assert len(new) == 3 and after.version != before.version
    assert {c.tier.value for c in new} == {"pending"}
    by_trace = {c.notes.split()[3]: c for c in new}  # "From production trace t0 ..."
    assert set(by_trace) == {"t0", "t1", "t2"} and "from production trace t0" in out
    assert by_trace["t1"].reference_answer == "GOOD answer 1"
    assert by_trace["t1"].input == "What is the capital of country number 1?"
    assert main(argv) == 0  # again: every query is there already, nothing written
    assert "skipped trace t0: same query as case" in capsys.readouterr().out
    assert load_dataset(dataset).version == after.version


def test_named_cases_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _lost_run(tmp_path, capsys)
    dataset = tmp_path / "golden.json"
    shutil.copy(default_dataset(), dataset)
    base = ["golden", "add", "--dataset", str(dataset), "--reason", "r", "--db", db]
    assert main([*base, "--from-shadow", "1", "--cases", "t3"]) == 0
    assert "from production trace t3" in capsys.readouterr().out
    assert main([*base, "--from-shadow", "1", "--cases", "nope"]) == 2
    assert "not a case of shadow run 1: nope" in capsys.readouterr().err
    assert main([*base, "--from-shadow", "1"]) == 2
    assert "--cases" in capsys.readouterr().err

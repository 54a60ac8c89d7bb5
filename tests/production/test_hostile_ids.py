"""Issue 46, "Crashes": a trace id ``"t1\\n"`` passed the safe-id check (``$`` matches before a
final newline), became a case id the golden set refuses, and ``arena shadow`` exited 70 with a
traceback, leaving an empty database. Now such an id is hashed like any unsafe one, and the
cases are made before the database is opened."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.production import ProductionTrace
from arena.storage import Store
from tests.production.helpers import trace_rows, write_jsonl
from tests.production.scripted import register_models, variant_file

pytestmark = pytest.mark.system  # end to end through the CLI, on scripted models


def test_an_id_ending_in_a_newline_is_hashed_into_a_safe_case_id() -> None:
    case_id = ProductionTrace(trace_id="t1\n", query="q", answer="a").case_id
    assert case_id.startswith("trace-") and "\n" not in case_id


def test_a_newline_in_a_trace_id_is_a_run_not_a_crash_nor_an_empty_db(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    rows = trace_rows(3)
    rows[1]["trace_id"] = "t1\n"
    traces = write_jsonl(tmp_path / "prod.jsonl", rows)
    db = tmp_path / "arena.db"
    argv = ["shadow", "--traces", traces, "--candidate", variant_file(tmp_path, "c", "better"),
            "--judge", "fake:prefers-good/text", "--db", f"sqlite:///{db}", "--json"]  # fmt: skip
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["battles"] == 3
    (run,) = Store(f"sqlite:///{db}").runs()
    assert "t1\n" in run.config["shadow"]["trace_ids"].values()

"""A shadow run in the app: the compare view shows each trace's two answers side by side
with the judge's verdicts (it is an ordinary run of two variants)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.app.compare_view import case_table
from arena.app.views import Context
from arena.cli import main
from arena.storage import Store
from tests.production.helpers import trace_rows, write_jsonl
from tests.production.scripted import register_models, variant_file

pytestmark = pytest.mark.system  # a shadow run through the CLI, then the app's table


def test_the_compare_view_shows_the_lost_traces_side_by_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(3, answer="GOOD answer"))
    argv = ["shadow", "--traces", traces, "--candidate", variant_file(tmp_path, "cheap", "worse"),
            "--judge", "fake:prefers-good/text", "--db", db, "--json"]  # fmt: skip
    assert main(argv) == 0
    losses = json.loads(capsys.readouterr().out)["losses"]
    store = Store(db)
    (run,) = store.runs()
    (key, _, _), *_ = store.judge_keys(run.id)
    ctx = Context(url=db, run=run.model_dump(mode="json"), dataset_runs=[], judge_key=key)
    table = case_table(ctx, "production", "cheap").set_index("Case")
    assert sorted(table.index) == sorted(loss["case_id"] for loss in losses)
    assert table.loc["t1", "production output"] == "GOOD answer 1"
    assert table.loc["t1", "cheap output"] == "I am not sure."
    assert set(table["Judge winner"]) == {"production"}

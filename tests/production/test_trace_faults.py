"""Trace files that crashed ``arena shadow`` (exit 70, an empty database) or were read
wrongly: a number too large for a float (``1e400``, read as infinity), two ids that become one
case id once hashed, and an id ending in a newline. Each is exit 2 naming the file, the line
and ``field``, with no database written; a trace id ending in a newline is a hashed case id.
JSON output never holds ``Infinity`` or ``NaN``."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pytest

from arena.cli import main
from arena.production import ProductionTrace
from arena.reports import json_text
from tests.production.helpers import trace_rows
from tests.production.scripted import register_models, variant_file

JUDGE = "fake:prefers-good/text"


def _hashed(trace_id: str) -> str:
    return "trace-" + hashlib.sha256(trace_id.encode()).hexdigest()[:16]


BAD = {
    "too large a number": (
        {"trace_id": "t9", "query": "q", "answer": "a", "latency_s": 1e400},
        "field latency_s: 1e400 is too large for a number",
    ),
    "too large a cost": (
        {"trace_id": "t9", "query": "q", "answer": "a", "cost": -1e999},
        "field cost: -1e999 is too large for a number",
    ),
    "a number written as text": (
        {"trace_id": "t9", "query": "q", "answer": "a", "latency_s": "nan"},
        "field latency_s: Input should be a finite number",
    ),
    "an id colliding with a hashed id": (
        {"trace_id": _hashed("t 0"), "query": "another", "answer": "b"},
        f"trace ids 't 0' and '{_hashed('t 0')}' (first at line 1) become the same case id",
    ),
}


def _write(path: Path, extra: dict) -> Path:
    rows = trace_rows(2)
    rows[0]["trace_id"] = "t 0"  # not a safe case id: hashed
    text = "".join(json.dumps(r) + "\n" for r in rows)
    raw = json.dumps(extra).replace("Infinity", "1e400").replace("-1e400", "-1e999")
    path.write_text(text + raw + "\n")
    return path


@pytest.mark.system
@pytest.mark.parametrize("evaluate_only", [False, True], ids=["shadow", "evaluate-only"])
@pytest.mark.parametrize("name", list(BAD))
def test_a_bad_trace_is_exit_2_naming_the_line_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, evaluate_only: bool
) -> None:
    register_models()
    row, says = BAD[name]
    traces = _write(tmp_path / "prod.jsonl", row)
    mode = (
        ["--evaluate-only"]
        if evaluate_only
        else ["--candidate", variant_file(tmp_path, "cand", "better"), "--judge", JUDGE]
    )
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    assert main(["shadow", "--traces", str(traces), "--db", db, "--json", *mode]) == 2
    err = capsys.readouterr().err
    assert f"file {traces}" in err and "line 3" in err and says in err, err
    assert not (tmp_path / "arena.db").exists()


@pytest.mark.unit
def test_an_id_ending_in_a_newline_is_hashed() -> None:
    trace = ProductionTrace(trace_id="t1\n", query="q", answer="a")
    assert trace.case_id == _hashed("t1\n")
    assert ProductionTrace(trace_id="t1", query="q", answer="a").case_id == "t1"


@pytest.mark.system
def test_a_trace_id_ending_in_a_newline_is_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    rows = trace_rows(2)
    rows[1]["trace_id"] = "t1\n"
    traces = tmp_path / "prod.jsonl"
    traces.write_text("".join(json.dumps(r) + "\n" for r in rows))
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    argv = ["shadow", "--traces", str(traces), "--db", db, "--json", "--evaluate-only"]
    assert main(argv) == 0, capsys.readouterr().err
    json.loads(capsys.readouterr().out)


@pytest.mark.unit
def test_json_output_never_writes_infinity_or_nan() -> None:
    text = json_text({"latency_s": math.inf, "rows": [math.nan, -math.inf, 1.5], "n": 2})
    assert json.loads(text) == {"latency_s": None, "rows": [None, None, 1.5], "n": 2}
    assert "Infinity" not in text and "NaN" not in text


@pytest.mark.system
def test_arena_score_json_on_a_stored_infinity_is_valid_json(
    store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sqlalchemy import text

    from tests.battles.test_judges import _run

    run_id = _run(store)
    with store.engine.begin() as db:  # a database written before infinity was refused
        db.execute(text("update results set latency_s = :inf"), {"inf": math.inf})
    assert main(["score", str(run_id), "--json", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "Infinity" not in out and "NaN" not in out
    json.loads(out)

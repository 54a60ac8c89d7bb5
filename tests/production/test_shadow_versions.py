"""Issue 46, "Stale": a contestant whose answers are read (production's answers in a traces
file, an answer file) is versioned by what was read. Before, changing production's answer in
the trace file and rerunning ``arena shadow`` reused the old run: no call, a report on data no
longer in the file, and ``--require non-inferior`` deciding on it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.outputs import import_outputs
from arena.production import PRODUCTION
from arena.storage import Store
from tests.production.helpers import trace_rows, write_jsonl
from tests.production.scripted import register_models, variant_file

pytestmark = pytest.mark.system  # end to end through the CLI, on scripted models

JUDGE = "fake:prefers-good/text"


def _argv(tmp_path: Path, traces: str, candidate: str, *more: str) -> list[str]:
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    return ["shadow", "--traces", traces, "--candidate", candidate, "--judge", JUDGE,
            "--db", db, "--json", *more]  # fmt: skip


def _report(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    return json.loads(capsys.readouterr().out)


def test_a_changed_production_answer_is_a_new_contestant_judged_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    path = tmp_path / "prod.jsonl"
    traces = write_jsonl(path, trace_rows(8, answer="meh answer"))
    worse = variant_file(tmp_path, "cheap", "worse")
    assert main(_argv(tmp_path, traces, worse)) == 0
    first = _report(capsys)
    assert first["win_rate"] == 0.5 and first["losses"] == []  # neither is GOOD: ties
    write_jsonl(path, trace_rows(8, answer="GOOD answer"))  # production's answers changed
    argv = _argv(tmp_path, traces, worse, "--require", "non-inferior")
    assert main(argv) == 1  # decided on the answers now in the file
    second = _report(capsys)
    assert second["run_id"] != first["run_id"]
    assert second["model_calls"] == 8 * 2  # the candidate reused, every changed pair judged
    assert second["win_rate"] == 0.0 and second["non_inferior"] is False
    losses = second["losses"]
    assert isinstance(losses, list) and len(losses) == 8
    assert {loss["production"] for loss in losses} == {f"GOOD answer {i}" for i in range(8)}
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    hashes = {r.variant_hash for run in store.runs() for r in store.results(run.id)
              if r.variant == PRODUCTION}  # fmt: skip
    assert len(hashes) == 2  # two production contestants, one per content


def test_only_the_changed_trace_s_pair_is_judged_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    path = tmp_path / "prod.jsonl"
    rows = trace_rows(6, answer="meh answer")
    traces = write_jsonl(path, rows)
    better = variant_file(tmp_path, "cand", "better")
    assert main(_argv(tmp_path, traces, better)) == 0
    assert _report(capsys)["win_rate"] == 1.0
    rows[2]["answer"] = "GOOD answer 2"
    write_jsonl(path, rows)
    assert main(_argv(tmp_path, traces, better)) == 0
    again = _report(capsys)
    assert again["model_calls"] == 2  # one pair, both orders; the other five verdicts cached
    assert again["win_rate"] == pytest.approx(5.5 / 6)
    rows[2]["tools"] = [{"name": "lookup", "arguments": {"id": 2}, "result": "ok"}]
    write_jsonl(path, rows)  # a tool call read from the trace changes the contestant too
    assert main(_argv(tmp_path, traces, better)) == 0
    assert _report(capsys)["run_id"] != again["run_id"]


def test_a_changed_answer_file_is_a_new_contestant(tmp_path: Path) -> None:
    def answers(name: str, text: str) -> str:
        row = {"question_id": "q1", "question": "Capital of France?", "answer": text,
               "model": name}  # fmt: skip
        (tmp_path / f"{name}.jsonl").write_text(json.dumps(row) + "\n")
        return str(tmp_path / f"{name}.jsonl")

    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    files = [answers("model-x", "Paris"), answers("model-y", "Lyon")]
    first = import_outputs(store, files)
    assert import_outputs(store, files) == first  # the same files: the same run
    answers("model-y", "Paris, on the Seine")
    second = import_outputs(store, files)
    assert second != first
    outputs = {r.variant: r.output for r in store.results(second)}
    assert outputs == {"model-x": "Paris", "model-y": "Paris, on the Seine"}

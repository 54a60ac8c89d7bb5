"""Issue 46, "Lost": traces read through a pipe (``--traces <(cat t.jsonl)``) were silently
dropped (968 of 1000: the format sniff consumed the start, the pass reopened the pipe). Every
trace and answer reader now opens its source once and tells the format from a buffer. The
pipes here are real: a child process writes into ``os.pipe()``, read as ``/dev/fd/N``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import InputError
from arena.outputs import read_answer_file
from arena.production import SampleSpec, sampled_traces
from tests.production.helpers import trace_rows

pytestmark = pytest.mark.unit

WRITER = "import sys, os; os.write(int(sys.argv[1]), open(sys.argv[2], 'rb').read())"


@contextmanager
def piped(source: Path) -> Iterator[str]:
    """``/dev/fd/N``: the read end of a pipe a child process fills with ``source``'s bytes."""
    read, write = os.pipe()
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(write), str(source)], pass_fds=(write,)
    )
    os.close(write)
    try:
        yield f"/dev/fd/{read}"
    finally:
        os.close(read)  # a reader that stopped early: the child ends on a broken pipe
        child.wait(timeout=60)


def _jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_1000_traces_through_a_pipe_are_all_read(tmp_path: Path) -> None:
    source = _jsonl(tmp_path / "t.jsonl", trace_rows(1000))
    with piped(source) as pipe:
        sample, _ = sampled_traces(pipe, SampleSpec())
    assert sample.read == 1000
    assert {t.trace_id for t in sample.traces} == {f"t{i}" for i in range(1000)}


def test_a_pipe_through_the_cli_reads_every_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _jsonl(tmp_path / "t.jsonl", trace_rows(1000))
    db = tmp_path / "arena.db"
    with piped(source) as pipe:
        argv = ["shadow", "--traces", pipe, "--evaluate-only", "--db", f"sqlite:///{db}"]
        assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["sampled"] == 1000


def test_csv_and_a_runs_list_through_a_pipe(tmp_path: Path) -> None:
    csv = tmp_path / "t.csv"
    csv.write_text("id,query,answer\n" + "".join(f"r{i},Question {i}?,Answer {i}.\n"
                                                  for i in range(300)))  # fmt: skip
    with piped(csv) as pipe:
        sample, _ = sampled_traces(pipe, SampleSpec())
    assert sample.read == 300
    runs = [{"id": f"run-{i}", "inputs": {"question": f"Q{i}?"}, "outputs": {"answer": f"A{i}"}}
            for i in range(50)]  # fmt: skip
    listed = tmp_path / "runs.json"
    listed.write_text(json.dumps(runs))
    with piped(listed) as pipe:
        sample, _ = sampled_traces(pipe, SampleSpec())
    assert sample.read == 50


def test_a_duplicate_id_in_a_pipe_names_both_lines(tmp_path: Path) -> None:
    rows = trace_rows(40)
    rows.append({**rows[5], "query": "a different query"})
    with piped(_jsonl(tmp_path / "t.jsonl", rows)) as pipe, pytest.raises(InputError) as caught:
        sampled_traces(pipe, SampleSpec(max=1, seed=7))
    assert caught.value.at == "line 41" and caught.value.field == "trace_id"
    assert "given twice (first at line 6)" in caught.value.message


def test_answer_files_through_a_pipe(tmp_path: Path) -> None:
    rows = [{"question_id": f"q{i}", "question": f"Q{i}?", "answer": f"A{i}", "model": "m"}
            for i in range(500)]  # fmt: skip
    with piped(_jsonl(tmp_path / "a.jsonl", rows)) as pipe:
        answers = read_answer_file(pipe)
    assert len(answers.answers) == 500
    alpaca = tmp_path / "model_outputs.json"
    alpaca.write_text(json.dumps([{"instruction": f"Say {i}", "output": str(i),
                                   "generator": "g"} for i in range(20)]))  # fmt: skip
    with piped(alpaca) as pipe:
        listed = read_answer_file(pipe)
    assert listed.model == "g" and len(listed.answers) == 20

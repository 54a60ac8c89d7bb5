"""Reading production traces: our JSONL (streamed), a LangSmith runs export, the CSV of
``arena langsmith``; every bad input names the file, the line and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.errors import InputError
from arena.production import ProductionTrace, iter_traces, read_traces, trace_format
from arena.production._lines import stream_objects
from tests.production.helpers import DATA, trace_rows, write_jsonl

pytestmark = pytest.mark.unit


def test_jsonl_traces_read_with_every_field(tmp_path: Path) -> None:
    row = {
        "trace_id": "abc",
        "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "What is 2+2?"},
        ],
        "answer": "4",
        "tools": [{"name": "calculator", "arguments": {"expr": "2+2"}, "result": 4}],
        "latency_s": 0.8,
        "input_tokens": 12,
        "output_tokens": 1,
        "cost": 0.0001,
        "timestamp": "2026-12-01T10:00:00Z",
        "metadata": {"intent": "math"},
    }
    (trace,) = read_traces(write_jsonl(tmp_path / "t.jsonl", [row]))
    assert trace.query == "What is 2+2?"  # the last user message
    assert trace.tools[0].name == "calculator" and trace.tools[0].arguments == {"expr": "2+2"}
    assert trace.stratum("intent") == "math" and trace.case_id == "abc"


def test_an_unsafe_trace_id_becomes_a_hashed_case_id() -> None:
    trace = ProductionTrace(trace_id="../etc/passwd", query="q", answer="a")
    assert trace.case_id.startswith("trace-") and "/" not in trace.case_id


@pytest.mark.parametrize(
    ("line", "message", "field"),
    [
        ('{"trace_id": "t9", "answer": "x"}', "line 2, field query: Field required", "query"),
        ('{"trace_id": "t9", "query": "q"}', "line 2, field answer: Field required", "answer"),
        (
            '{"trace_id": "t9", "query": "q", "answer": "a", "latency_s": "slow"}',
            "line 2",
            "latency_s",
        ),
        ('{"trace_id": "t9", "query": "q", "answer": "a", "colour": 1}', "line 2", "colour"),
        (
            '{"trace_id": "t9", "query": "q", "answer": "a", "answer": "b"}',
            "key given twice",
            "answer",
        ),
        ('{"trace_id": "t9", "query": ', "line 2: malformed JSON", None),
        ("[1, 2]", "line 2: expected a JSON object", None),
    ],
)
def test_a_bad_line_names_file_line_and_field(
    tmp_path: Path, line: str, message: str, field: str | None
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(trace_rows(1)[0]) + "\n" + line + "\n")
    with pytest.raises(InputError) as caught:
        read_traces(path)
    assert message in str(caught.value) and caught.value.file == str(path)
    assert str(caught.value).startswith(f"file {path}, line 2")  # file F, line N, field X: ...
    assert caught.value.field == field and caught.value.at == "line 2"


def test_bytes_that_are_not_utf8_or_a_runaway_line_are_errors(tmp_path: Path) -> None:
    path = tmp_path / "bin.jsonl"
    path.write_bytes(json.dumps(trace_rows(1)[0]).encode() + b"\n\xff\xfe\n")
    with pytest.raises(InputError, match="line 2: not UTF-8"):
        read_traces(path)
    long = tmp_path / "long.jsonl"
    long.write_text('{"trace_id": "' + "x" * 200 + '"}\n')
    with pytest.raises(InputError, match="line 1: longer than 100 bytes"):
        list(stream_objects(long, limit=100))
    with pytest.raises(InputError, match="no such file"):
        read_traces(tmp_path / "missing.jsonl")
    with pytest.raises(InputError, match="expected OTLP JSON"):  # a folder holds OTLP files
        read_traces(tmp_path)


def test_jsonl_is_read_lazily_one_line_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(trace_rows(1)[0]) + "\n" + "not json\n")
    lines = iter_traces(path)
    where, first = next(lines)  # the bad second line is not read yet
    assert where == "line 1" and first.trace_id == "t0"
    with pytest.raises(InputError, match="line 2"):
        next(lines)


@pytest.mark.parametrize("name", ["langsmith_runs.json", "langsmith_runs.jsonl"])
def test_a_langsmith_runs_export_reads_its_root_runs(name: str) -> None:
    path = DATA / name
    assert trace_format(path) == "langsmith-runs"
    first, second = read_traces(path)  # the child llm run is skipped
    assert first.trace_id == "1f0d6c2e-8b1a-4c53-9a51-1d4b7e0c2a10"
    assert first.query.startswith("How much does the Pro plan cost per month?")
    assert first.answer == "The Pro plan costs $29 per month."
    assert [t.name for t in first.tools] == ["search_docs"]
    assert first.tools[0].result == "Pro: $29/month billed monthly."
    assert first.latency_s == pytest.approx(4.420894)
    assert first.total_tokens == 450 and first.cost == pytest.approx(0.0000846)
    assert first.metadata["intent"] == "pricing" and "LANGSMITH_PROJECT" not in first.metadata
    assert second.query.startswith("Can I get a refund") and second.answer.startswith("Yes")


def test_a_langsmith_run_without_a_query_is_named(tmp_path: Path) -> None:
    runs = json.loads((DATA / "langsmith_runs.json").read_text())
    runs[2]["inputs"] = {"payload": {"nested": 1}}
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(runs))
    with pytest.raises(InputError, match="run #2, field inputs: no query in inputs") as caught:
        read_traces(path)
    assert caught.value.field == "inputs" and caught.value.file == str(path)


def test_a_csv_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    text = "id,query,answer\nr1,Where is my order?,It ships tomorrow.\n"
    plain, excel = tmp_path / "plain.csv", tmp_path / "excel.csv"
    plain.write_text(text, encoding="utf-8")
    excel.write_text(text, encoding="utf-8-sig")  # Excel's "CSV UTF-8"
    assert read_traces(excel) == read_traces(plain)
    assert read_traces(excel)[0].trace_id == "r1"


def test_a_bad_csv_row_names_the_file_the_line_and_the_field(tmp_path: Path) -> None:
    path = tmp_path / "prod.csv"
    path.write_text(
        'id,query,answer\nr1,"Where is\nmy order?",Tomorrow.\nr2,,An answer to nothing.\n'
    )
    with pytest.raises(InputError) as caught:
        read_traces(path)
    assert str(caught.value) == f"file {path}, line 4, field inputs: no query column"


def test_the_csv_arena_langsmith_reads(tmp_path: Path) -> None:
    path = tmp_path / "prod.csv"
    path.write_text(
        "id,query,answer,metadata.intent\n"
        "r1,How do I reset my password?,Use the reset link.,account\n"
        ",Where is my order?,It ships tomorrow.,orders\n"
    )
    first, second = read_traces(path)
    assert first.trace_id == "r1" and first.answer == "Use the reset link."
    assert first.stratum("intent") == "account"
    assert second.trace_id.startswith("csv-")  # no id: a hash of the query, stable
    assert read_traces(path)[1].trace_id == second.trace_id

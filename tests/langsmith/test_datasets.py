"""Datasets both ways: golden set -> LangSmith examples (JSONL or uploaded) -> golden set."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import InputError
from arena.golden import load_dataset
from arena.golden._versioning import content_hash
from arena.langsmith import (
    case_to_example,
    fetch_examples,
    import_examples,
    make_client,
    read_examples,
    upload_dataset,
    write_jsonl,
)
from tests.langsmith.fake_langsmith import FakeLangSmith
from tests.langsmith.helpers import DATASET

pytestmark = pytest.mark.unit


def test_the_shipped_set_round_trips_through_jsonl(
    tmp_path: Path, golden_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "examples.jsonl"
    assert main(["langsmith", "export", str(golden_path), "--out", str(out)]) == 0
    assert "38 examples of research-agent-golden 1.0.0" in capsys.readouterr().out
    first = json.loads(out.read_text().splitlines()[0])
    assert first["inputs"] == {"query": "What are the main RAG techniques? Search the web."}
    assert first["outputs"]["expected_tools"] == ["search_web"]
    assert (
        first["metadata"]
        | {"category": "happy_path", "tier": "critical", "difficulty": "easy", "case_id": "HP-001"}
        == first["metadata"]
    )
    back = tmp_path / "back.json"
    assert main(["langsmith", "import", str(out), "--out", str(back)]) == 0
    original, restored = load_dataset(golden_path), load_dataset(back)
    assert restored.test_cases == original.test_cases
    assert (restored.name, restored.version) == (original.name, original.version)
    assert restored.content_hash == content_hash(original)


def _foreign_csv(path: Path) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["inputs", "outputs", "metadata"])
        writer.writerow(
            [
                json.dumps({"question": "How do I reset my password?"}),
                json.dumps({"answer": "Use the 'Forgot password' link."}),
                json.dumps({"source": "prod", "tags": ["auth"]}),
            ]
        )
        writer.writerow(
            [
                json.dumps(
                    {
                        "messages": [
                            {"role": "system", "content": "hi"},
                            {"role": "user", "content": "Cancel my plan"},
                        ]
                    }
                ),
                "",
                "",
            ]
        )
    return path


def test_foreign_examples_become_pending_cases(tmp_path: Path) -> None:
    report = import_examples(
        read_examples(_foreign_csv(tmp_path / "export.csv")),
        tmp_path / "new.json",
        source="export.csv",
        category="edge_case",
    )
    dataset = report.dataset
    assert report.created and report.added == ["LS-001", "LS-002"]
    first, second = dataset.test_cases
    assert (first.input, first.reference_answer) == (
        "How do I reset my password?",
        "Use the 'Forgot password' link.",
    )
    assert first.tags == ["auth"] and first.tier.value == "pending"
    assert first.category == "edge_case" and second.input == "Cancel my plan"
    assert dataset.content_hash == content_hash(dataset) and dataset.version == "1.0.0"


def test_flat_csv_columns(tmp_path: Path) -> None:
    path = tmp_path / "flat.csv"
    path.write_text(
        "inputs.query,outputs.expected_tools,outputs.max_steps,metadata.case_id,tier\n"
        '"What\'s 2+2?","[""calculate""]",2,MATH-1,critical\n'
    )
    (example,) = read_examples(path)
    assert example == {
        "inputs": {"query": "What's 2+2?"},
        "outputs": {"expected_tools": ["calculate"], "max_steps": 2},  # a number column
        "metadata": {"case_id": "MATH-1", "tier": "critical"},
        "_where": "line 2",
    }
    case = import_examples(
        [example], tmp_path / "g.json", source="flat.csv", available_tools=["calculate"]
    ).dataset.case("MATH-1")
    assert case.expected_tools == ["calculate"] and case.max_steps == 2
    assert case.tier.value == "critical"


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    plain = _foreign_csv(tmp_path / "plain.csv")
    excel = tmp_path / "excel.csv"  # Excel's "CSV UTF-8" starts with a byte order mark
    excel.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    assert read_examples(excel) == read_examples(plain)
    jsonl = tmp_path / "excel.jsonl"
    jsonl.write_text('\ufeff{"inputs": {"query": "q"}}\n', encoding="utf-8")
    assert read_examples(jsonl) == [{"inputs": {"query": "q"}, "_where": "line 1"}]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (["q", "[1]"], "line 4, field outputs: must hold a JSON object"),
        (["q", '{"a": NaN}'], "line 4, field outputs.a: NaN is not a JSON number"),
        (["q"], "line 4: 1 cells, the header has 2 columns"),
    ],
)
def test_a_bad_csv_row_names_the_file_the_line_it_starts_on_and_the_field(
    tmp_path: Path, row: list[str], message: str
) -> None:
    path = tmp_path / "bad.csv"
    with path.open("w", newline="") as handle:  # the first row spans lines 2 and 3
        csv.writer(handle).writerows([["query", "outputs"], ["two\nlines", "{}"], row])
    with pytest.raises(InputError) as err:
        read_examples(path)
    assert str(err.value).startswith(f"file {path}, {message}"), str(err.value)
    assert err.value.file == str(path) and err.value.at == "line 4"


def test_importing_into_an_existing_set_skips_what_is_there(tmp_path: Path) -> None:
    golden = tmp_path / "golden.json"
    golden.write_text(json.dumps(DATASET.model_dump(mode="json")))
    examples = [case_to_example(c, DATASET) for c in DATASET.test_cases]
    examples.append({"inputs": {"query": "send an email to bob #c-2"}, "outputs": {}})
    examples.append(
        {
            "inputs": {"query": "A brand new question"},
            "outputs": {"answer": "new"},
            "metadata": {"category": "ambiguous"},
        }
    )
    report = import_examples(examples, golden, source="prod.jsonl")
    assert report.added == ["LS-001"] and not report.created
    assert report.skipped == {
        "C-1": "id already in the dataset",
        "C-2": "id already in the dataset",
        "example #2": "same query as case C-2",
    }
    dataset = load_dataset(golden)
    assert dataset.version == "2.2.0" and dataset.case("LS-001").category == "ambiguous"
    assert dataset.changelog[-1].change == "import 1 case(s) from prod.jsonl"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"inputs": {"query": "ok"}}\nnot json\n', ", line 2: "),
        ('{"outputs": {}}\n', ", line 1, field inputs: "),
        ('{"inputs": {"a": "x", "b": "y"}}\n', ", line 1, field inputs: "),
        ("[1]\n", ", line 1: "),
    ],
)
def test_bad_examples_name_the_file_and_line(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        import_examples(read_examples(path), tmp_path / "g.json", source=str(path))
    assert f"file {path}" in str(err.value) and where in str(err.value)
    assert not (tmp_path / "g.json").exists()


def test_an_invalid_imported_case_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    examples = [{"inputs": {"query": "q"}, "metadata": {"case_id": "X-1", "category": "chef"}}]
    with pytest.raises(InputError, match="case X-1, field category") as err:
        import_examples(examples, tmp_path / "out" / "g.json", source="s.jsonl")
    assert str(tmp_path / "out" / "g.json") in str(err.value)
    assert not (tmp_path / "out").exists()


def test_upload_syncs_and_import_by_name(
    tmp_path: Path, langsmith_env: FakeLangSmith, capsys: pytest.CaptureFixture[str]
) -> None:
    client = make_client()
    first = upload_dataset(client, DATASET)
    assert first.created and first.added == ["C-1", "C-2"]
    changed = DATASET.model_copy(
        update={
            "test_cases": [
                DATASET.test_cases[0].model_copy(update={"reference_answer": "three hundred"}),
                DATASET.test_cases[1],
            ]
        }
    )
    second = upload_dataset(client, changed)
    assert (second.created, second.added, second.updated, second.unchanged) == (
        False,
        [],
        ["C-1"],
        1,
    )
    assert second.example_ids == first.example_ids
    patches = [r for r in langsmith_env.requests if r.method == "PATCH"]
    assert len(patches) == 1 and patches[0].body["outputs"]["reference_answer"] == "three hundred"
    examples, tools = fetch_examples(client, "ls-contract")
    assert tools == ["calculate"] and len(examples) == 2
    out = tmp_path / "from-langsmith.json"
    assert main(["langsmith", "import", "ls-contract", "--out", str(out)]) == 0
    assert "2 case(s) added" in capsys.readouterr().out
    assert load_dataset(out).case("C-1").reference_answer == "three hundred"
    assert main(["langsmith", "import", "no-such-dataset", "--out", str(out)]) == 2
    assert "no-such-dataset" in capsys.readouterr().err


def test_export_uploads_when_configured(
    golden_path: Path, langsmith_env: FakeLangSmith, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["langsmith", "export", str(golden_path), "--name", "rag-golden"]) == 0
    assert "'rag-golden' created" in capsys.readouterr().out
    assert len(langsmith_env.examples) == 38
    assert main(["langsmith", "export", str(golden_path), "--name", "rag-golden"]) == 0
    assert "0 added, 0 updated, 38 unchanged" in capsys.readouterr().out


def test_write_jsonl_counts(tmp_path: Path) -> None:
    assert (
        write_jsonl([case_to_example(c) for c in DATASET.test_cases], tmp_path / "a" / "b.jsonl")
        == 2
    )

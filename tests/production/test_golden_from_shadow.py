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
from tests.production.helpers import DATA, trace_rows, write_jsonl
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
            str(dataset), "--reason", "lost to production", "--category", "happy_path",
            "--db", db]  # fmt: skip
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
    base = ["golden", "add", "--dataset", str(dataset), "--reason", "r", "--db", db,
            "--category", "edge_case"]  # fmt: skip
    assert main([*base, "--from-shadow", "1", "--cases", "t3"]) == 0
    assert "from production trace t3" in capsys.readouterr().out
    assert main([*base, "--from-shadow", "1", "--cases", "nope"]) == 2
    assert "not a case of shadow run 1: nope" in capsys.readouterr().err
    assert main([*base, "--from-shadow", "1"]) == 2
    assert "--cases" in capsys.readouterr().err


def test_a_dataset_with_its_own_categories_and_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _lost_run(tmp_path, capsys)
    dataset = tmp_path / "shop.json"  # categories stock, price, orders, off_topic; ids S-1 ...
    shutil.copy(DATA / "shop_golden.json", dataset)
    base = ["golden", "add", "--from-shadow", "1", "--dataset", str(dataset), "--reason", "r",
            "--db", db]  # fmt: skip
    assert main([*base, "--cases", "t0"]) == 2
    err = capsys.readouterr().err
    assert f"file {dataset}, field --category: give the new cases' category" in err
    assert "this dataset's categories are stock, price, orders, off_topic" in err
    assert main([*base, "--cases", "t0", "--category", "happy_path"]) == 2
    assert "unknown category 'happy_path'" in capsys.readouterr().err
    assert load_dataset(dataset).version == load_dataset(DATA / "shop_golden.json").version
    assert main([*base, "--cases", "t0", "t1", "--category", "stock"]) == 0
    assert "added S-6 (stock, pending) from production trace t0" in capsys.readouterr().out
    added = {c.id: c.category for c in load_dataset(dataset).test_cases if c.tier == "pending"}
    assert added == {"S-6": "stock", "S-7": "stock"}


def test_a_dataset_with_one_category_needs_no_category(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _lost_run(tmp_path, capsys)
    shop = json.loads((DATA / "shop_golden.json").read_text())
    shop["categories"] = ["stock"]
    for case in shop["test_cases"]:
        case["category"] = "stock"
    dataset = tmp_path / "stock.json"
    dataset.write_text(json.dumps(shop))
    argv = ["golden", "add", "--from-shadow", "1", "--cases", "t2", "--dataset", str(dataset),
            "--reason", "r", "--db", db]  # fmt: skip
    assert main(argv) == 0
    assert "added S-6 (stock, pending)" in capsys.readouterr().out


def _won_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A shadow run the candidate lost no trace of (it answers GOOD, as production does)."""
    register_models()
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(3, answer="GOOD answer"))
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    argv = ["shadow", "--traces", traces, "--candidate", variant_file(tmp_path, "c", "better"),
            "--judge", "fake:prefers-good/text", "--db", db, "--json"]  # fmt: skip
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["losses"] == []
    return db


def test_no_case_added_says_why_and_leaves_the_file_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _won_run(tmp_path, capsys)
    dataset = tmp_path / "golden.json"
    shutil.copy(default_dataset(), dataset)
    before = dataset.read_bytes()
    base = ["golden", "add", "--from-shadow", "1", "--dataset", str(dataset), "--reason", "r",
            "--category", "happy_path", "--db", db]  # fmt: skip
    assert main([*base, "--cases", "losses"]) == 0
    out = capsys.readouterr().out
    assert f"no case added: the candidate lost no trace of shadow run 1; {dataset} is " in out
    assert "content hash" not in out and dataset.read_bytes() == before
    assert main([*base, "--cases", "t0", "t1"]) == 0  # written once, then both are there
    capsys.readouterr()
    written = dataset.read_bytes()
    assert main([*base, "--cases", "t0", "t1"]) == 0
    out = capsys.readouterr().out
    assert "skipped trace t0: same query as case" in out
    assert "no case added: every trace's query is already a case of the dataset" in out
    assert "content hash" not in out and dataset.read_bytes() == written


# A golden set as a team writes it by hand: several fields on a line, short arrays inline.
HAND_WRITTEN = """{
  "name": "helpdesk-golden",
  "categories": ["billing", "off_topic"],
  "available_tools": ["lookup_invoice"],
  "test_cases": [
    {"id": "H-1", "input": "What is the status of invoice INV-100?", "category": "billing",
     "expected_tools": ["lookup_invoice"], "expected_output_contains": ["paid"]},
    {"id": "H-2", "input": "Write me a poem.", "category": "off_topic",
     "expected_output_contains": ["only help with billing"]}
  ]
}
"""


def _changed(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines a diff removes and adds."""
    import difflib

    diff = list(difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0))
    removed = [d[1:] for d in diff if d.startswith("-") and not d.startswith("---")]
    added = [d[1:] for d in diff if d.startswith("+") and not d.startswith("+++")]
    return removed, added


def test_an_add_keeps_the_file_s_layout_so_the_diff_is_the_new_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _lost_run(tmp_path, capsys)
    dataset = tmp_path / "desk.json"
    dataset.write_text(HAND_WRITTEN)
    argv = ["golden", "add", "--from-shadow", "1", "--cases", "t0", "t1", "--dataset",
            str(dataset), "--reason", "lost", "--category", "billing", "--db", db]  # fmt: skip
    assert main(argv) == 0
    after = dataset.read_text()
    removed, added = _changed(HAND_WRITTEN, after)
    last = '     "expected_output_contains": ["only help with billing"]}'
    assert removed == [last]  # the last case only gains the comma before the new ones
    assert added[0] == '  "version": "1.1.0",' and f"{last}," in added
    new = [line for line in added if line not in (f"{last},",)]
    assert '      "id": "H-3",' in new and '      "tags": ["production", "shadow"],' in new
    assert all(line.startswith(("  ", "    ")) for line in new)  # the file's 2-space indent
    cases = load_dataset(dataset).test_cases
    assert [c.id for c in cases] == ["H-1", "H-2", "H-3", "H-4"]

    capsys.readouterr()
    assert main(["golden", "promote", "H-3", "--tier", "standard", "--dataset", str(dataset)]) == 0
    removed, added = _changed(after, dataset.read_text())
    assert '      "tier": "pending",' in removed and '      "tier": "standard",' in added
    assert '  "version": "1.1.0",' in removed and '  "version": "1.2.0",' in added
    assert len(removed) == 3  # the tier, the version and the content hash; the rest is added

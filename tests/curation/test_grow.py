"""`arena golden add --from-result` and `arena golden promote`: pending cases from failures,
versions bumped, content hashes recorded, bad input refused with the file left untouched."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.curation._grow import add_from_result, case_from_result, next_case_id, promote_case
from arena.errors import InputError
from arena.golden import load_dataset
from arena.golden._models import Category
from arena.golden._versioning import bump_version, content_hash
from arena.models import register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

TOOLS = ["search_web", "calculate", "write_file"]


def _dataset(path: Path, cases: list[dict[str, Any]], **header: Any) -> Path:
    path.write_text(
        json.dumps({"name": "g", "available_tools": TOOLS, **header, "test_cases": cases}, indent=2)
    )
    return path


def _golden(tmp_path: Path) -> Path:
    return _dataset(
        tmp_path / "golden.json",
        [
            {
                "id": "HP-001",
                "input": "What's 25% of 1200?",
                "category": "happy_path",
                "tier": "critical",
                "expected_tools": ["calculate"],
                "expected_output_contains": ["300"],
            },
            {
                "id": "GF-001",
                "input": "Send an email to bob",
                "category": "graceful_failure",
                "expected_tools": [],
            },
        ],
    )


def _failed_result(tmp_path: Path, store: Store) -> int:
    """A run of a probe dataset where the agent wrongly searches instead of calculating."""
    probe = _dataset(
        tmp_path / "probe.json",
        [
            {
                "id": "P-1",
                "input": "What's 12% of 250?",
                "category": "happy_path",
                "difficulty": "easy",
                "expected_tools": ["calculate"],
                "forbidden_tools": ["write_file"],
                "expected_output_contains": ["30"],
            }
        ],
    )
    register_fake(
        "grow-bad", [{"tool": "search_web", "args": {"query": "12% of 250"}}, "It is about 25."]
    )
    variant = Variant.model_validate(
        {"name": "bad", "model": {"spec": "fake:grow-bad"}, "tools": TOOLS}
    )
    report = run_suite(store, load_dataset(probe), [variant], RunOptions(progress=False))
    (result,) = report.results
    assert result.id is not None and result.tool_names == ["search_web"]
    return result.id


def test_add_from_result_makes_a_pending_case_and_bumps_the_version(
    tmp_path: Path, store: Store
) -> None:
    golden = _golden(tmp_path)
    result_id = _failed_result(tmp_path, store)
    dataset, case = add_from_result(
        store, result_id, golden, "searched instead of calculating", tags=["prod-2024-10"]
    )
    assert case.id == "HP-002"  # the next id of the source case's category prefix
    assert case.tier.value == "pending" and case.category == Category.HAPPY_PATH
    assert case.input == "What's 12% of 250?"
    assert case.expected_tools == ["calculate"] and case.forbidden_tools == ["write_file"]
    assert case.added == date.today() and case.reason == "searched instead of calculating"
    assert case.tags == ["prod-2024-10"]
    assert f"result {result_id}" in case.notes and "search_web" in case.notes
    assert dataset.version == "1.1.0"
    reloaded = load_dataset(golden)
    assert reloaded.content_hash == content_hash(reloaded) == dataset.content_hash
    (entry,) = reloaded.changelog
    assert entry.version == "1.1.0" and entry.content_hash == reloaded.content_hash
    assert "HP-002" in entry.change and f"result {result_id}" in entry.change


def test_the_added_case_is_validated_like_any_case(tmp_path: Path, store: Store) -> None:
    golden = _golden(tmp_path)
    result_id = _failed_result(tmp_path, store)
    narrow = _dataset(tmp_path / "narrow.json", [], available_tools=["calculate"])
    with pytest.raises(InputError, match="write_file not in available_tools") as err:
        add_from_result(store, result_id, narrow, "why")
    assert f"file {narrow}" in str(err.value) and "field forbidden_tools" in str(err.value)
    before = golden.read_text()
    with pytest.raises(InputError, match="already used"):
        add_from_result(store, result_id, golden, "why", case_id="GF-001")
    with pytest.raises(InputError, match="reason"):
        add_from_result(store, result_id, golden, "  ")
    assert golden.read_text() == before  # a refused edit leaves the file as it was
    assert not list(tmp_path.glob(".golden.json.*"))


def test_a_query_already_in_the_set_is_refused_unless_rephrased(
    tmp_path: Path, store: Store
) -> None:
    golden = _golden(tmp_path)
    result_id = _failed_result(tmp_path, store)
    add_from_result(store, result_id, golden, "first")
    with pytest.raises(InputError, match="same query is already case HP-002"):
        add_from_result(store, result_id, golden, "again")
    _, case = add_from_result(
        store, result_id, golden, "again", query="How much is 12 percent of 250?"
    )
    assert case.id == "HP-003" and load_dataset(golden).version == "1.2.0"


def test_promote_moves_the_tier_and_records_the_change(tmp_path: Path, store: Store) -> None:
    golden = _golden(tmp_path)
    _, case = add_from_result(store, _failed_result(tmp_path, store), golden, "bug 42")
    dataset = promote_case(golden, case.id, "critical")
    assert dataset.case(case.id).tier.value == "critical" and dataset.version == "1.2.0"
    assert [c.change for c in dataset.changelog][-1] == f"promote {case.id}: pending -> critical"
    assert dataset.content_hash == content_hash(dataset) != dataset.changelog[0].content_hash
    with pytest.raises(InputError, match="already in the critical tier"):
        promote_case(golden, case.id, "critical")
    with pytest.raises(InputError, match="case NOPE"):
        promote_case(golden, "NOPE", "standard")
    with pytest.raises(InputError, match="tier"):
        promote_case(golden, case.id, "pending")


def test_cli_add_and_promote(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = _golden(tmp_path)
    result_id = _failed_result(tmp_path, Store(db_url))
    assert (
        main(
            [
                "golden",
                "add",
                "--from-result",
                str(result_id),
                "--reason",
                "wrong tool",
                "--dataset",
                str(golden),
                "--db",
                db_url,
                "--tag",
                "a",
                "--tag",
                "b",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "added HP-002 (happy_path, pending)" in out and "version 1.1.0" in out
    assert (
        main(["golden", "promote", "HP-002", "--tier", "standard", "--dataset", str(golden)]) == 0
    )
    assert "HP-002 is now standard" in capsys.readouterr().out
    case = load_dataset(golden).case("HP-002")
    assert case.tier.value == "standard" and case.tags == ["a", "b"]
    # bad input: exit 2, named, nothing written
    before = golden.read_text()
    assert main(["golden", "promote", "ZZ-9", "--tier", "critical", "--dataset", str(golden)]) == 2
    assert "case ZZ-9" in capsys.readouterr().err
    assert (
        main(
            [
                "golden",
                "add",
                "--from-result",
                "999",
                "--reason",
                "x",
                "--dataset",
                str(golden),
                "--db",
                db_url,
            ]
        )
        == 2
    )
    assert "999" in capsys.readouterr().err
    assert golden.read_text() == before


def test_case_from_result_falls_back_to_the_tools_called(store: Store, tmp_path: Path) -> None:
    result = store.result(_failed_result(tmp_path, store))
    source = (
        load_dataset(tmp_path / "probe.json").case("P-1").model_copy(update={"expected_tools": []})
    )
    case = case_from_result(result, source, case_id="X-1", reason="r", added=date(2024, 1, 2))
    assert case["expected_tools"] == ["search_web"] and case["added"] == "2024-01-02"


@pytest.mark.parametrize(
    ("version", "bumped"), [("1.0.0", "1.1.0"), ("1.9.3", "1.10.0"), ("2.4", "2.5"), ("3", "4")]
)
def test_bump_version(version: str, bumped: str) -> None:
    assert bump_version(version) == bumped


def test_bump_version_refuses_free_text() -> None:
    with pytest.raises(InputError, match="version"):
        bump_version("v1-beta")


def test_next_case_id_uses_the_category_prefix(tmp_path: Path) -> None:
    dataset = load_dataset(_golden(tmp_path))
    assert next_case_id(dataset, Category.HAPPY_PATH) == "HP-002"
    assert next_case_id(dataset, Category.MULTI_STEP) == "MS-001"


def test_content_hash_ignores_formatting_but_not_content(tmp_path: Path) -> None:
    golden = _golden(tmp_path)
    first = content_hash(load_dataset(golden))
    raw = json.loads(golden.read_text())
    raw["description"] = "edited"
    golden.write_text(json.dumps(raw))  # no indentation, other header
    assert content_hash(load_dataset(golden)) == first
    raw["test_cases"][0]["tier"] = "standard"
    golden.write_text(json.dumps(raw))
    assert content_hash(load_dataset(golden)) != first

"""Case metadata: added, reason, tags, per-case timeout_s (honoured by the runner), rubric;
unset metadata changes no hash, so stored results and caches stay valid."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from arena.errors import InputError
from arena.golden import GoldenCase, GoldenDataset, case_hash, load_dataset
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

METADATA = ("tags", "added", "reason", "timeout_s", "rubric")


def test_metadata_loads_and_validates(tmp_path: Path) -> None:
    case = {
        "id": "C-1",
        "input": "q",
        "category": "happy_path",
        "tags": ["billing", "prod"],
        "added": "2024-10-01",
        "reason": "ticket 42",
        "timeout_s": 30,
        "rubric": "Mentions the refund policy.",
    }
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"name": "d", "available_tools": [], "test_cases": [case]}))
    loaded = load_dataset(path).case("C-1")
    assert loaded.added == date(2024, 10, 1) and loaded.timeout_s == 30.0
    assert loaded.tags == ["billing", "prod"] and loaded.rubric == "Mentions the refund policy."
    for bad, field in (
        ({"timeout_s": 0}, "timeout_s"),
        ({"added": "yesterday"}, "added"),
        ({"tags": "one"}, "tags"),
    ):
        path.write_text(
            json.dumps({"name": "d", "available_tools": [], "test_cases": [{**case, **bad}]})
        )
        with pytest.raises(InputError) as err:
            load_dataset(path)
        assert f"file {path}, case C-1, field {field}" in str(err.value)


def test_unset_metadata_changes_no_hash(golden_path: Path) -> None:
    dataset = load_dataset(golden_path)
    for case in dataset.test_cases:
        dump = case.model_dump(mode="json")
        assert not set(METADATA) & set(dump)
    # the hash of the first shipped case, as stored by runs made before the metadata existed
    assert case_hash(dataset.test_cases[0]) == "9d8f6ebd9e3d"
    tagged = dataset.test_cases[0].model_copy(update={"tags": ["x"]})
    assert case_hash(tagged) != "9d8f6ebd9e3d"


def test_the_runner_honours_a_case_timeout(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_TEST_SLEEP", "0.6")
    dataset = GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": [],
            "test_cases": [
                {"id": "QUICK", "input": "a", "category": "happy_path", "timeout_s": 0.1},
                {"id": "PATIENT", "input": "b", "category": "happy_path"},
                {"id": "LONG", "input": "c", "category": "happy_path", "timeout_s": 5},
            ],
        }
    )
    variant = Variant.model_validate(
        {"name": "slow", "agent": "tests.support.agents:slow_agent", "model": {"spec": "fake:echo"}}
    )
    report = run_suite(
        store, dataset, [variant], RunOptions(progress=False, case_timeout_s=0.3, concurrency=3)
    )
    by_case = {r.case_id: r for r in report.results}
    assert by_case["QUICK"].error == "timeout: no answer within 0.1 s"
    assert by_case["PATIENT"].error == "timeout: no answer within 0.3 s"  # the run's default
    assert by_case["LONG"].error is None and by_case["LONG"].output == "slow answer to c"


def test_case_is_frozen_and_keeps_metadata_through_storage(store: Store) -> None:
    dataset = GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": [],
            "test_cases": [
                {
                    "id": "C",
                    "input": "q",
                    "category": "edge_case",
                    "tags": ["t"],
                    "rubric": "r",
                    "added": "2024-01-01",
                    "reason": "why",
                    "timeout_s": 9,
                }
            ],
        }
    )
    stored = store.load_dataset(store.ensure_dataset(dataset))
    assert stored.case("C") == dataset.case("C")
    with pytest.raises(Exception, match="frozen"):
        GoldenCase.model_validate(dataset.case("C").model_dump()).tags = []  # type: ignore[misc]

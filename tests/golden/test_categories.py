"""A dataset may declare its own categories; the five stay the default, and a case outside
the dataset's categories is refused naming file, case and field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.curation._grow import next_case_id
from arena.errors import InputError
from arena.golden import GoldenDataset, load_dataset
from arena.golden._models import DEFAULT_CATEGORIES

pytestmark = pytest.mark.unit


def _write(tmp_path: Path, categories: list[str] | None, *case_categories: str) -> Path:
    doc: dict[str, Any] = {"name": "d", "available_tools": []}
    if categories is not None:
        doc["categories"] = categories
    doc["test_cases"] = [
        {"id": f"C-{i}", "input": "q", "category": c} for i, c in enumerate(case_categories)
    ]
    path = tmp_path / "golden.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_dataset_declares_its_own_categories(tmp_path: Path) -> None:
    dataset = load_dataset(_write(tmp_path, ["conversion", "off_topic"], "conversion", "off_topic"))
    assert dataset.category_names == ["conversion", "off_topic"]
    assert [c.category for c in dataset.test_cases] == ["conversion", "off_topic"]
    assert next_case_id(dataset, "off_topic") == "OF-001"


@pytest.mark.parametrize(
    ("declared", "category", "listed"),
    [
        (None, "happy", "happy_path, edge_case, ambiguous, multi_step, graceful_failure"),
        (["conversion"], "happy_path", "conversion"),
    ],
)
def test_a_case_outside_the_datasets_categories_is_refused(
    tmp_path: Path, declared: list[str] | None, category: str, listed: str
) -> None:
    path = _write(tmp_path, declared, "happy_path" if declared is None else "conversion", category)
    with pytest.raises(InputError) as info:
        load_dataset(path)
    text = str(info.value)
    assert f"file {path}, case C-1, field category" in text and listed in text, text


def test_the_five_stay_the_default_and_hashes_do_not_move(tmp_path: Path) -> None:
    from arena.golden import dataset_hash

    plain = load_dataset(_write(tmp_path, None, *DEFAULT_CATEGORIES))
    assert plain.category_names == list(DEFAULT_CATEGORIES)
    assert "categories" not in plain.model_dump()
    declared = plain.model_copy(update={"categories": list(DEFAULT_CATEGORIES)})
    assert dataset_hash(declared) != dataset_hash(plain)  # declaring them is a change


def test_bad_category_names_and_datasets_built_in_code(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="field categories"):
        load_dataset(_write(tmp_path, ["has space"], "ok"))
    with pytest.raises(ValueError, match="unknown category 'other'"):
        GoldenDataset.model_validate(
            {
                "name": "d",
                "categories": ["mine"],
                "available_tools": [],
                "test_cases": [{"id": "C", "input": "q", "category": "other"}],
            }
        )


def test_a_gate_category_limit_must_name_one_of_the_datasets_categories(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    from arena.cli import main

    root = Path(__file__).resolve().parents[2] / "examples" / "own-agent"
    project = tmp_path / "own-agent"
    shutil.copytree(root, project)
    argv = ["--fake-scripts", str(project / "fake_models.yaml"), "gate"]
    argv += ["--config", str(project / "arena.yaml"), "--baseline", "baseline", "--judge", "none"]
    argv += ["--db", f"sqlite:///{tmp_path / 'a.db'}"]
    assert main([*argv, "--min-category-pass-rate", "happy_path=0.5"]) == 2
    err = capsys.readouterr().err
    assert "unknown category(ies) happy_path" in err and "conversion, scaling" in err

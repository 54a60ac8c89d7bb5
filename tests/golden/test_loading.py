"""Golden dataset and variant loading: every bad input names file, case and field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.errors import InputError
from arena.golden import Category, Tier, load_dataset
from arena.variants.variant import load_variant, load_variants

pytestmark = pytest.mark.unit

TOOLS = ["search_web", "calculate"]


def _write(tmp_path: Path, cases: list[dict[str, Any]], **header: Any) -> Path:
    body = {"name": "t", "version": "1", "available_tools": TOOLS, "test_cases": cases, **header}
    path = tmp_path / "golden.json"
    path.write_text(json.dumps(body))
    return path


def _case(**fields: Any) -> dict[str, Any]:
    return {"id": "C-1", "input": "q", "category": "happy_path", **fields}


def test_shipped_dataset_meets_the_brief(golden_path: Path) -> None:
    dataset = load_dataset(golden_path)
    assert len(dataset.test_cases) >= 25
    for category in Category:
        assert sum(c.category == category for c in dataset.test_cases) >= 4
    assert sum(c.tier == Tier.CRITICAL for c in dataset.test_cases) >= 8


@pytest.mark.parametrize(
    ("case", "field", "message"),
    [
        (_case(category="sad_path"), "category", "happy_path"),
        (_case(tier="urgent"), "tier", "critical"),
        (_case(expected_tools=["send_email"]), "expected_tools", "send_email"),
        (_case(expected_order=["search_papers"]), "expected_order", "search_papers"),
        (_case(acceptable_tools=[[], ["browse"]]), "acceptable_tools", "browse"),
        (_case(max_steps=-1), "max_steps", "greater than or equal"),
        (_case(surprise=1), "surprise", "Extra inputs"),
        (_case(expected_behavior="dance"), "expected_behavior", "refuse"),
    ],
)
def test_bad_case_names_file_case_and_field(
    tmp_path: Path, case: dict[str, Any], field: str, message: str
) -> None:
    path = _write(tmp_path, [case])
    with pytest.raises(InputError) as info:
        load_dataset(path)
    text = str(info.value)
    assert str(path) in text and "case C-1" in text and field in text and message in text


def test_duplicate_ids_rejected(tmp_path: Path) -> None:
    path = _write(tmp_path, [_case(), _case()])
    with pytest.raises(InputError, match=r"case C-1, field id: duplicate id"):
        load_dataset(path)


def test_malformed_json_names_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"name": "x",\n "test_cases": [,]}')
    with pytest.raises(InputError, match=r"bad.json: malformed JSON at line 2"):
        load_dataset(path)


def test_case_without_id_is_named_by_position(tmp_path: Path) -> None:
    path = _write(tmp_path, [_case(), {"input": "q", "category": "happy_path"}])
    with pytest.raises(InputError, match=r"case #1, field id"):
        load_dataset(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_dataset(tmp_path / "nope.json")


def test_any_of_alternatives_load(tmp_path: Path) -> None:
    path = _write(tmp_path, [_case(expected_output_contains=["a", ["b", "c"]])])
    assert load_dataset(path).test_cases[0].expected_output_contains == ["a", ["b", "c"]]


def test_shipped_variants_load_with_distinct_hashes(variants_dir: Path) -> None:
    variants = load_variants(sorted(variants_dir.glob("*.yaml")))
    names = {v.name for v in variants}
    assert {"baseline", "prompt-v2", "small-model", "supervisor"} <= names
    hashes = [v.version_hash for v in variants]
    assert len(set(hashes)) == len(hashes)
    baseline = next(v for v in variants if v.name == "baseline")
    assert "research assistant" in baseline.system_prompt


def _variant_file(tmp_path: Path, text: str, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_changed_prompt_file_changes_version(tmp_path: Path) -> None:
    prompt = tmp_path / "p.md"
    prompt.write_text("Be brief.")
    path = _variant_file(
        tmp_path, "name: v\nmodel: {spec: 'fake:echo'}\nsystem_prompt_file: p.md\n"
    )
    first = load_variant(path).version_hash
    prompt.write_text("Be very brief.")
    assert load_variant(path).version_hash != first


def test_description_does_not_change_version(tmp_path: Path) -> None:
    a = _variant_file(tmp_path, "name: v\ndescription: one\nmodel: {spec: 'fake:echo'}\n", "a.yaml")
    b = _variant_file(tmp_path, "name: v\ndescription: two\nmodel: {spec: 'fake:echo'}\n", "b.yaml")
    assert load_variant(a).version_hash == load_variant(b).version_hash


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("name: v\nmodel: {spec: 'gpt-4'}\n", "model.spec", "PROVIDER:NAME"),
        ("name: v\nmodel: {spec: 'fake:echo', temperature: 9}\n", "model.temperature", "less"),
        ("name: v\nagent: swarm\nmodel: {spec: 'fake:echo'}\n", "agent", "react"),
        ("name: v\nmodel: {spec: 'fake:echo'}\ntools: [send_email]\n", "tools", "send_email"),
        (
            "name: v\nmodel: {spec: 'fake:echo'}\nsystem_prompt_file: nope.md\n",
            "system_prompt_file",
            "not found",
        ),
        ("name: v\nmodel: {spec: 'fake:echo'}\nmax_steps: 0\n", "max_steps", "greater"),
        ("name: v\nmodel: {spec: 'fake:echo'}\ncolour: red\n", "colour", "Extra inputs"),
        ("model: {spec: 'fake:echo'}\n", "name", "required"),
    ],
)
def test_bad_variant_names_file_and_field(
    tmp_path: Path, text: str, field: str, message: str
) -> None:
    path = _variant_file(tmp_path, text)
    with pytest.raises(InputError) as info:
        load_variant(path)
    assert str(path) in str(info.value) and field in str(info.value)
    assert message in str(info.value)


def test_malformed_yaml_and_duplicate_names(tmp_path: Path) -> None:
    bad = _variant_file(tmp_path, "name: [unclosed\n", "bad.yaml")
    with pytest.raises(InputError, match="malformed YAML"):
        load_variant(bad)
    a = _variant_file(tmp_path, "name: v\nmodel: {spec: 'fake:echo'}\n", "a.yaml")
    b = _variant_file(tmp_path, "name: v\nmodel: {spec: 'fake:echo'}\n", "b.yaml")
    with pytest.raises(InputError, match="also used by"):
        load_variants([a, b])

"""The JSON Schemas: docs/schema holds exactly what `arena schema` generates from the pydantic
models, and every shipped file names its schema with `$schema` and validates against it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from arena.cli import main
from arena.cli.schema import schema_models
from arena.inputs import schemas
from arena.inputs.schemas import SCHEMA_DIR, SCHEMAS, schema_file

pytestmark = pytest.mark.unit


def json_schema(kind: str) -> dict[str, Any]:
    return schemas.json_schema(kind, schema_models()[kind])


def schema_text(kind: str) -> str:
    return schemas.schema_text(kind, schema_models()[kind])


REPO = Path(__file__).resolve().parents[1]
SHIPPED = {
    "golden": ["data/golden/*.json", "examples/own-agent/golden/*.json"],
    "variant": ["data/variants/*.yaml", "examples/own-agent/variants/*.yaml"],
    "config": ["arena.yaml", "examples/own-agent/arena.yaml"],
    "fake-scripts": ["examples/own-agent/fake_models.yaml"],
}


@pytest.mark.parametrize("kind", list(SCHEMAS))
def test_the_committed_schema_is_the_generated_one(kind: str) -> None:
    committed = REPO / SCHEMA_DIR / schema_file(kind)
    assert committed.read_text(encoding="utf-8") == schema_text(kind), (
        f"{committed} is stale: run `arena schema --write {SCHEMA_DIR}`"
    )
    jsonschema.Draft202012Validator.check_schema(json_schema(kind))


def test_arena_schema_prints_one_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "judge"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["$id"] == "judge.schema.json" and "model" in printed["properties"]
    assert main(["schema"]) == 2


def _files(kind: str) -> list[Path]:
    return sorted(p for pattern in SHIPPED[kind] for p in REPO.glob(pattern))


@pytest.mark.parametrize("kind", list(SHIPPED))
def test_shipped_files_carry_their_schema_and_validate(kind: str) -> None:
    validator = jsonschema.Draft202012Validator(json_schema(kind))
    files = _files(kind)
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        doc = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
        target = (path.parent / doc["$schema"]).resolve()
        assert target == (REPO / SCHEMA_DIR / schema_file(kind)).resolve(), path
        if path.suffix == ".yaml":  # the Red Hat YAML extension reads the modeline
            assert f"# yaml-language-server: $schema={doc['$schema']}\n" in text, path
        errors = [e.message for e in validator.iter_errors(doc)]
        assert errors == [], (path, errors)


def test_the_schema_catches_what_the_loader_refuses() -> None:
    validator = jsonschema.Draft202012Validator(json_schema("variant"))
    bad = {"name": "v", "model": {"spec": "fake:echo"}, "max_steps": 0, "colour": "red"}
    messages = " ".join(e.message for e in validator.iter_errors(bad))
    assert "colour" in messages and "minimum of 1" in messages


def test_loading_accepts_the_schema_key(tmp_path: Path) -> None:
    from arena.golden import load_dataset
    from arena.variants.variant import load_variant

    variant = tmp_path / "v.yaml"
    variant.write_text("$schema: x.json\nname: v\nmodel: {spec: 'fake:echo'}\n")
    plain = tmp_path / "w.yaml"
    plain.write_text("name: v\nmodel: {spec: 'fake:echo'}\n")
    assert load_variant(variant).version_hash == load_variant(plain).version_hash
    dataset = tmp_path / "g.json"
    dataset.write_text(
        json.dumps(
            {
                "$schema": "x.json",
                "name": "g",
                "available_tools": [],
                "test_cases": [{"id": "C", "input": "hi", "category": "happy_path"}],
            }
        )
    )
    assert load_dataset(dataset).name == "g"
    judge = tmp_path / "judge.yaml"
    judge.write_text("$schema: x.json\nmodel: {spec: 'fake:echo'}\nmode: text\n")
    from judges import parse_judge

    assert parse_judge(str(judge)).mode == "text"


def _undescribed(node: object, where: str) -> list[str]:
    """Every property, at any depth of a schema, without a description."""
    if isinstance(node, list):
        return [m for item in node for m in _undescribed(item, where)]
    if not isinstance(node, dict):
        return []
    missing = [
        f"{where}.{name}"
        for name, prop in (node.get("properties") or {}).items()
        if "description" not in prop
    ]
    return missing + [m for key, value in node.items() for m in _undescribed(value, where)]


@pytest.mark.parametrize("kind", ["variant", "golden", "judge", "config"])
def test_every_field_of_the_files_a_team_writes_has_a_description(kind: str) -> None:
    assert _undescribed(json_schema(kind), kind) == []

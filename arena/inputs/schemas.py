"""JSON Schemas of the files a team writes, generated from the pydantic models that load them.

``arena schema golden|variant|judge|config|fake-scripts`` prints one; ``docs/schema/`` holds
them all (``write_schemas``; a test keeps the committed files equal to the generated ones).
A file names its schema with a ``$schema`` key (ignored when it loads), so editors complete
and check it.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

SCHEMAS: dict[str, tuple[str, str]] = {
    "golden": ("arena.golden._models:GoldenDataset", "A golden dataset (JSON)."),
    "variant": ("arena.variants.variant:Variant", "A variant: one agent configuration (YAML)."),
    "judge": ("judges._types:JudgeSpec", "A judge file for --judge (YAML)."),
    "config": ("arena.project._config:GateConfig", "arena.yaml: the merge gate's settings."),
    "fake-scripts": (
        "arena.models._fake_files:FakeScriptsFile",
        "Scripted models for --fake-scripts (YAML or JSON).",
    ),
}
SCHEMA_DIR = "docs/schema"
# Fields that are never written in a file (set by the loader), and keys the loader reads
# before the model sees them.
_INTERNAL = {"config": ("base_dir",)}
_LOADER_KEYS: dict[str, dict[str, Any]] = {
    "variant": {
        "system_prompt_file": {
            "type": "string",
            "description": "A text file holding the system prompt, relative to the variant "
            "file (instead of system_prompt).",
        }
    }
}


def schema_file(kind: str) -> str:
    """The file name of one schema in ``docs/schema``."""
    return f"{kind}.schema.json"


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of one kind of file (KeyError for an unknown kind)."""
    path, title = SCHEMAS[kind]
    module, _, attr = path.partition(":")
    model = getattr(importlib.import_module(module), attr)
    schema: dict[str, Any] = model.model_json_schema(by_alias=True)
    properties = schema.setdefault("properties", {})
    for name in _INTERNAL.get(kind, ()):
        properties.pop(name, None)
    properties.update(_LOADER_KEYS.get(kind, {}))
    properties["$schema"] = {
        "type": "string",
        "description": "The JSON Schema of this file, for editors (ignored when loading).",
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": schema_file(kind),
        **schema,
        "description": f"{title} {schema.get('description', '')}".strip(),
    }


def schema_text(kind: str) -> str:
    """One schema as the committed file's text."""
    return json.dumps(json_schema(kind), indent=2, ensure_ascii=False) + "\n"


def write_schemas(folder: str | Path = SCHEMA_DIR) -> list[Path]:
    """Write every schema into ``folder``; returns the files written."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in SCHEMAS:
        path = target / schema_file(kind)
        path.write_text(schema_text(kind), encoding="utf-8")
        written.append(path)
    return written

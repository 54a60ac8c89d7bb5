"""JSON Schemas of the files a team writes, generated from the pydantic models that load them.

``arena schema golden|variant|judge|config|fake-scripts`` prints one; ``docs/schema/`` holds
them all (``write_schemas``; a test keeps the committed files equal to the generated ones).
The models live above this module: the caller hands them in (``arena schema`` imports them,
:func:`arena.cli.schema.schema_models`).
A file names its schema with a ``$schema`` key (ignored when it loads), so editors complete
and check it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

SCHEMAS: dict[str, str] = {
    "golden": "A golden dataset (JSON).",
    "variant": "A variant: one agent configuration (YAML).",
    "judge": "A judge file for --judge (YAML).",
    "config": "arena.yaml: the merge gate's settings.",
    "fake-scripts": "Scripted models for --fake-scripts (YAML or JSON).",
}
"""Every kind of file with a schema, and the title its schema starts its description with."""
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


def json_schema(kind: str, model: Any) -> dict[str, Any]:
    """The JSON Schema of one kind of file (KeyError for an unknown kind).

    Args:
        kind: a key of :data:`SCHEMAS`.
        model: the pydantic model that loads that kind of file.

    Returns:
        The schema, with its ``$schema``, ``$id`` and the file's own keys.
    """
    title = SCHEMAS[kind]
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


def schema_text(kind: str, model: Any) -> str:
    """One schema as the committed file's text (``model``: as :func:`json_schema` takes it)."""
    return json.dumps(json_schema(kind, model), indent=2, ensure_ascii=False) + "\n"


def write_schemas(models: Mapping[str, Any], folder: str | Path = SCHEMA_DIR) -> list[Path]:
    """Write every schema into ``folder``.

    Args:
        models: the model of each kind of :data:`SCHEMAS`.
        folder: where to write them.

    Returns:
        The files written.
    """
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in SCHEMAS:
        path = target / schema_file(kind)
        path.write_text(schema_text(kind, models[kind]), encoding="utf-8")
        written.append(path)
    return written

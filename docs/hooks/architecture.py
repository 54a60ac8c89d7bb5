"""MkDocs hook: the Architecture page (`architecture.md`), generated from `docs/architecture.yaml`.

That file is the one place the layout is written: where things live (package -> what it does)
and the layer order of the imports. `tests/test_layers.py` enforces the same file, so the page
and the check cannot drift. `render_architecture()` is also what the docs tests check.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "docs" / "architecture.yaml"
PAGE = "architecture.md"

INTRO = """# Architecture

Generated from `docs/architecture.yaml` when the site is built (see
`docs/hooks/architecture.py`). The same file is what `tests/test_layers.py` enforces, so this
page always matches the check.

## Layers

`arena` and `judges` are a few layers of whole packages, bottom to top. A module may import
modules of its own layer and of the layers below it, never in a cycle; each layer imports the
one below it. Every import counts: at module level, inside functions, and under
`TYPE_CHECKING`. `tests/test_layers.py` walks every module's imports with `ast` and fails on
any import cycle, on any import that points up this order, on a module in no layer, on a
package on two layers, and on a package missing from the table below.

"""

PACKAGES_INTRO = """
## Where things live

| package | layer | what it does |
| --- | --- | --- |
"""

OUTRO = """
The registry sits at the bottom. It refers to the built-in extensions only by import-path
strings, which are not imports, so a module in any layer can register into it.
"""


def load() -> dict[str, Any]:
    """The parsed `docs/architecture.yaml`: `packages` and `layers` (bottom to top)."""
    data: dict[str, Any] = yaml.safe_load(SOURCE.read_text())
    return data


def _names(text: str) -> str:
    return ", ".join(f"`{name.strip()}`" for name in text.split(","))


def _packages(layer: dict[str, Any]) -> list[str]:
    """The packages a layer lists, in order: ``pkg`` once for its patterns ``pkg`` and ``pkg.*``."""
    return list(dict.fromkeys(pattern.removesuffix(".*") for pattern in layer["modules"]))


def _layer_of(name: str, data: dict[str, Any]) -> str:
    for layer in data["layers"]:
        if name in _packages(layer):
            return str(layer["name"])
    return ""


def render_architecture(data: dict[str, Any] | None = None) -> str:
    """The whole Architecture page as Markdown."""
    data = data or load()
    layers = []
    for number, layer in enumerate(data["layers"], start=1):
        about = f" ({' '.join(layer['about'].split())})" if layer.get("about") else ""
        packages = ", ".join(f"`{package}`" for package in _packages(layer))
        layers.append(f"{number}. **{layer['name']}**{about}: {packages}")
    rows = [
        f"| {_names(entry['name'])} (`{entry['path']}`) "
        f"| {_layer_of(entry['name'].split(',')[0].strip(), data)} "
        f"| {' '.join(entry['does'].split())} |"
        for entry in data["packages"]
    ]
    return "\n".join([INTRO + "\n".join(layers), PACKAGES_INTRO + "\n".join(rows), OUTRO])


def on_files(files: Any, config: Any) -> Any:
    """MkDocs event: add the generated page to the site's files."""
    from mkdocs.structure.files import File

    files.append(File.generated(config, PAGE, content=render_architecture()))
    return files

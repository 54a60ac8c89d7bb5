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

## Where things live

| package | what it does |
| --- | --- |
"""

LAYERS_INTRO = """
## Layers

The modules of `arena` and `judges` import one another in one direction, from bottom to top.
A module may import modules in its own layer and in the layers below it. Every import
counts: at module level, inside functions, and under `TYPE_CHECKING`. `tests/test_layers.py`
walks every module's imports with `ast`. It fails on any import cycle, on any import that
points up this order, on a module in no layer, and on a package missing from the table above.
A module's layer is the first (from the bottom) whose patterns match its name (`*` matches
any rest of the name).

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


def render_architecture(data: dict[str, Any] | None = None) -> str:
    """The whole Architecture page as Markdown."""
    data = data or load()
    rows = [
        f"| {_names(entry['name'])} (`{entry['path']}`) | {' '.join(entry['does'].split())} |"
        for entry in data["packages"]
    ]
    layers = []
    for number, layer in enumerate(data["layers"], start=1):
        about = f" ({layer['about']})" if layer.get("about") else ""
        modules = ", ".join(f"`{module}`" for module in layer["modules"])
        layers.append(f"{number}. **{layer['name']}**{about}: {modules}")
    return "\n".join([INTRO + "\n".join(rows), LAYERS_INTRO + "\n".join(layers), OUTRO])


def on_files(files: Any, config: Any) -> Any:
    """MkDocs event: add the generated page to the site's files."""
    from mkdocs.structure.files import File

    files.append(File.generated(config, PAGE, content=render_architecture()))
    return files

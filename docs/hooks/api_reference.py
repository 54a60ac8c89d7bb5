"""MkDocs hook: the Python API page (`api.md`), one mkdocstrings entry per public name.

The public names are the packages' lazy re-exports (`arena._EXPORTS`, `judges._EXPORTS`), so
a name added to `arena/__init__.py` appears here without editing the docs.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PAGE = "api.md"
PACKAGES = {
    "arena": "Everything the CLI does is a library call; these are the names `arena` exports.",
    "judges": "The pairwise LLM judges behind one async protocol.",
}

INTRO = """# Python API

Generated from the packages' public names when the site is built (see
`docs/hooks/api_reference.py`). Each name is importable from its package, e.g.
`from arena import run_suite` or `from judges import parse_judge`; the heading shows the
module that defines it.
"""


def public_names(package: str) -> dict[str, str]:
    """The package's re-exported names and the module each comes from."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    exports: dict[str, str] = importlib.import_module(package)._EXPORTS
    return dict(exports)


def render_api_reference() -> str:
    """The whole API page as Markdown (mkdocstrings directives)."""
    lines = [INTRO]
    for package, summary in PACKAGES.items():
        lines += [f"## `{package}`", "", summary, ""]
        for name, module in public_names(package).items():
            lines += [f"::: {module}.{name}", ""]
    return "\n".join(lines)


def on_files(files: Any, config: Any) -> Any:
    """MkDocs event: add the generated page to the site's files."""
    from mkdocs.structure.files import File

    files.append(File.generated(config, PAGE, content=render_api_reference()))
    return files

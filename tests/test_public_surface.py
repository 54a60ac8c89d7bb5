"""The public surface: a package whose face re-exports names keeps its implementation modules
private (``_``-prefixed, the style of inspect_ai), and every public name resolves.

A package whose ``__init__`` is a docstring only (``arena.inputs``, ``arena.records``, ...)
re-exports nothing, so its modules are the public import paths and keep their names.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# packages outside the rule, and why
EXCLUDED = {
    # the file names of the built-in agent are part of its version hash, which the committed
    # baselines/baseline.json records
    "arena.agents.research",
    # one module per command (tests/cli/test_command_modules.py)
    "arena.cli",
    # the Streamlit page is served by file path
    "arena.app",
}
# modules of the root face: the foundations every layer imports, and the extension surface
ROOT_MODULES = {
    "defaults",
    "display",
    "errors",
    "extend",
    "fanout",
    "paths",
    "registry",
    "sandbox",
    "secrets",
    "vocabulary",
}


def _packages() -> list[Path]:
    faces = sorted((ROOT / "arena").rglob("__init__.py")) + sorted(
        (ROOT / "judges").rglob("__init__.py")
    )
    return [face.parent for face in faces if "__pycache__" not in face.parts]


def _dotted(folder: Path) -> str:
    return ".".join(folder.relative_to(ROOT).parts)


def _reexports(folder: Path) -> bool:
    """Whether a package's face re-exports names from its own submodules: an import from one
    of them, or a lazy table naming them."""
    package = _dotted(folder)
    tree = ast.parse((folder / "__init__.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(package + "."):
            return True
        if isinstance(node, ast.Constant) and str(node.value).startswith(package + "."):
            return True
    return False


FACES = [_dotted(f) for f in _packages() if _reexports(f) and _dotted(f) not in EXCLUDED]


def test_the_faces_are_found() -> None:
    # the rule below is only as good as this list: a face losing its re-exports (or the
    # detection breaking) must show here
    assert {"arena.gate", "arena.ratings", "judges", "judges.modes", "arena.scoring.checks"} <= set(
        FACES
    )
    assert "arena.inputs" not in FACES  # a docstring-only face: its modules are public


@pytest.mark.parametrize("package", FACES)
def test_implementation_modules_of_a_reexporting_package_are_private(package: str) -> None:
    folder = ROOT / package.replace(".", "/")
    public = sorted(
        path.name
        for path in folder.glob("*.py")
        if not path.name.startswith("_") and not (package == "arena" and path.stem in ROOT_MODULES)
    )
    assert public == [], (
        f"{package} re-exports names from its modules, so its implementation modules are "
        f"private: rename {public} to _-prefixed names (or re-export nothing from the face)"
    )


@pytest.mark.parametrize("package", ["arena", "judges", "arena.extend", *FACES])
def test_every_public_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    missing = [name for name in module.__all__ if not hasattr(module, name)]
    assert missing == []

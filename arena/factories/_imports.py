"""Where a bring-your-own factory is imported from: the installed packages, else the project.

A factory named ``kitchen.agent:build`` imports as installed if it can. Otherwise the first
of the project roots holding a ``kitchen`` package (or ``kitchen.py``) is appended to
``sys.path`` (appended: an installed package or the standard library is never shadowed):

- the variant file's folder and each folder above it, up to the project root (the first one
  holding ``arena.yaml``, ``pyproject.toml``, ``setup.py`` or ``.git``), then that root's
  ``src/`` folder;
- the folder of every ``arena.yaml`` that was loaded (``--config``) and its ``src/``;
- the working directory and its ``src/``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

PROJECT_MARKERS = ("arena.yaml", "pyproject.toml", "setup.py", ".git")
SOURCE_FOLDER = "src"
_CONFIG_ROOTS: list[Path] = []


def add_project_root(folder: str | Path) -> None:
    """Make ``folder`` (an ``arena.yaml``'s) a place factories may be imported from."""
    path = Path(folder).resolve()
    if path not in _CONFIG_ROOTS:
        _CONFIG_ROOTS.append(path)


def project_roots(variant_file: str | Path | None) -> list[Path]:
    """The folders searched for a factory's top-level package, nearest first."""
    roots: list[Path] = []
    if variant_file is not None:
        folder = Path(variant_file).resolve().parent
        for candidate in (folder, *folder.parents):
            roots.append(candidate)
            if any((candidate / marker).exists() for marker in PROJECT_MARKERS):
                roots.append(candidate / SOURCE_FOLDER)
                break
        else:
            roots = [folder]  # no project root above it: the variant's own folder only
    for base in (*_CONFIG_ROOTS, Path.cwd().resolve()):
        roots += [base, base / SOURCE_FOLDER]
    return [root for root in dict.fromkeys(roots) if root.name != SOURCE_FOLDER or root.is_dir()]


def make_importable(module: str, variant_file: str | Path | None) -> list[Path]:
    """Put the project root holding ``module``'s package on ``sys.path`` if it is not
    importable already; returns the roots searched (for the error when it is nowhere)."""
    top = module.split(".")[0]
    roots = project_roots(variant_file)
    try:
        if importlib.util.find_spec(top) is not None:
            return roots
    except (ImportError, ValueError):
        return roots
    for root in roots:
        if (root / top).is_dir() or (root / f"{top}.py").is_file():
            if str(root) not in sys.path:
                sys.path.append(str(root))
            importlib.invalidate_caches()
            break
    return roots

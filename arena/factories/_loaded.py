"""Project files an agent loads at run time beyond those its ``import`` statements name.

The static fingerprint (:mod:`arena.factories._fingerprint`) reads ``import`` statements; a
module loaded another way (``importlib.import_module("desk" + "policy")``, ``__import__``) is
invisible to it. So while the factory builds and runs an agent (and only then), the runner
records it (:func:`recording`): an import hook wraps ``builtins.__import__`` and
``importlib.import_module`` while at least one recording is open, and notes a module only in
the context of the agent that asked for it (a context variable: asyncio tasks and the worker
threads running its tools inherit it; other agents and the rest of the process do not), and
only when its file is a project file (under the variant's project roots, outside the Python
installation, not arena's own) that the static fingerprint did not hash. A module loaded
before, by anyone, is noted again when this agent asks for it: the record is what the agent
used, not what the process holds.

The runner stores the list under the variant's static version (``Store.record_loaded``); the
next run covers those files (``Store.covering``): unchanged, the version stays; one edited
since, the version becomes a new one and nothing stored under the old one is reused. Nothing
is kept in the process between runs, so two unrelated agents in one process (the test suite)
never change each other's versions.
"""

from __future__ import annotations

import builtins
import contextvars
import importlib
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from arena.factories._fingerprint import (
    SKIPPED_DIRS,
    _environment_roots,
    _installed,
    file_digest,
)

MISSING = "missing"
"""The digest of a recorded file that cannot be found any more (a change: a new version)."""
OURS = ("arena", "judges")


@dataclass
class LoadRecorder:
    """The project files one agent loaded beyond its static code: ``{relative path: digest}``."""

    roots: Sequence[Path] = ()
    covered: frozenset[str] = frozenset()
    files: dict[str, str] = field(default_factory=dict)
    _seen: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, module: ModuleType | None) -> None:
        """Record ``module`` when it is a project file the static code does not cover."""
        name = getattr(module, "__name__", None)
        if not isinstance(name, str) or name in self._seen:
            return
        with self._lock:
            self._seen.add(name)
        if name.split(".")[0] in OURS:
            return
        path = _source(getattr(module, "__file__", None))
        if path is None:
            return
        root = next((r for r in self.roots if path.is_relative_to(r)), None)
        if root is None:
            return
        rel = path.relative_to(root).as_posix()
        if rel not in self.covered:
            with self._lock:
                self.files[rel] = file_digest(path)


_ACTIVE: contextvars.ContextVar[LoadRecorder | None] = contextvars.ContextVar(
    "arena_load_recorder", default=None
)
_HOOK_LOCK = threading.Lock()
_OPEN = 0
_ORIGINAL_IMPORT = builtins.__import__
_ORIGINAL_IMPORT_MODULE = importlib.import_module


def _source(file: object) -> Path | None:
    """The resolved ``.py`` file of a module, None when it is not a project file."""
    if not isinstance(file, str):
        return None
    try:
        path = Path(file).resolve()
    except OSError:
        return None
    if path.suffix != ".py" or not path.is_file():
        return None
    if any(part in SKIPPED_DIRS for part in path.parts):
        return None
    return None if _installed(path, _environment_roots()) else path


def _hooked_import(
    name: str,
    globals: Any = None,
    locals: Any = None,
    fromlist: Any = (),
    level: int = 0,
) -> Any:
    module = _ORIGINAL_IMPORT(name, globals, locals, fromlist, level)
    recorder = _ACTIVE.get()
    if recorder is not None:
        absolute = name
        if level:
            package = (globals or {}).get("__package__") or ""
            absolute = importlib.util.resolve_name("." * level + name, package)
        recorder.note(sys.modules.get(absolute))
        for item in fromlist or ():
            recorder.note(sys.modules.get(f"{absolute}.{item}"))
    return module


def _hooked_import_module(name: str, package: str | None = None) -> ModuleType:
    module = _ORIGINAL_IMPORT_MODULE(name, package)
    recorder = _ACTIVE.get()
    if recorder is not None:
        recorder.note(module)
    return module


def _install() -> None:
    global _OPEN
    with _HOOK_LOCK:
        _OPEN += 1
        if _OPEN == 1:
            builtins.__import__ = _hooked_import
            importlib.import_module = _hooked_import_module


def _uninstall() -> None:
    global _OPEN
    with _HOOK_LOCK:
        _OPEN -= 1
        if _OPEN == 0:
            builtins.__import__ = _ORIGINAL_IMPORT
            importlib.import_module = _ORIGINAL_IMPORT_MODULE


def hook_installed() -> bool:
    """Whether the import hook is in place now (only while some agent is being recorded)."""
    return builtins.__import__ is _hooked_import


@contextmanager
def recording(roots: Sequence[Path], covered: frozenset[str]) -> Iterator[LoadRecorder]:
    """Record, in this context only, the project files under ``roots`` not in ``covered``
    that get loaded inside the block (see the module doc)."""
    recorder = LoadRecorder(roots=list(roots), covered=covered)
    _install()
    token = _ACTIVE.set(recorder)
    try:
        yield recorder
    finally:
        _ACTIVE.reset(token)
        _uninstall()


def current_digest(rel: str, roots: Sequence[Path]) -> str:
    """The content hash the recorded file has now, under the first project root holding it;
    :data:`MISSING` otherwise."""
    for root in roots:
        candidate = root / rel
        if candidate.is_file():
            return file_digest(candidate.resolve())
    return MISSING

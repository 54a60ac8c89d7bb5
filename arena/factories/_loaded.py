"""Project files an agent really loaded, beyond those its imports name.

The static fingerprint (:mod:`arena.factories._fingerprint`) reads ``import`` statements; a
module loaded another way (``importlib.import_module("desk" + "policy")``, ``__import__``, a
plugin loader) is invisible to it. So wherever an agent runs (this process, a worker thread,
a Ray worker), after each task the runner lists the modules in ``sys.modules`` whose file lies
in the variant's project (:func:`arena.factories.project_roots`, outside the Python
installation, not ``arena`` or ``judges``) and that the static fingerprint did not hash
(:func:`loaded_files`); the Store keeps that list under the variant's version, with each
file's content hash, and makes :data:`RECORDED` the lists it holds when it opens. The next
version of the variant (:func:`arena.variants.version.version_of`) then covers those files too:
one edited since the run changes the version, so nothing stored under the old one is reused.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.factories._fingerprint import (
    SKIPPED_DIRS,
    _environment_roots,
    _installed,
    file_digest,
)

MISSING = "missing"
"""The digest of a recorded file that cannot be found any more (a change, so a new version)."""
OURS = ("arena", "judges", "__main__", "__mp_main__")


@dataclass(frozen=True)
class LoadedFile:
    """A project module an agent loaded: its name and its file's content hash."""

    module: str
    digest: str


RECORDED: dict[str, dict[str, LoadedFile]] = {}
"""Per version hash, the project files agents of that version were seen loading (``{relative
path: LoadedFile}``): those of the Store opened last in this process and of every task run
since."""

_CLASSIFIED: dict[tuple[str, str], tuple[str, Path] | None] = {}
_DIGESTS: dict[Path, tuple[int, int, str]] = {}


def recorded_in(stored: Mapping[str, Mapping[str, LoadedFile]]) -> None:
    """Make :data:`RECORDED` what the database just opened holds (a process works on one
    database; the lists of another one name files of other checkouts)."""
    RECORDED.clear()
    for version_hash, files in stored.items():
        remember(version_hash, files)


def remember(version_hash: str, files: Mapping[str, LoadedFile]) -> None:
    """Add ``files`` to what :data:`RECORDED` holds for ``version_hash``."""
    if files:
        RECORDED.setdefault(version_hash, {}).update(files)


def loaded_files(roots: Sequence[Path], covered: Iterable[str]) -> dict[str, LoadedFile]:
    """The project modules in ``sys.modules`` under ``roots`` whose files are not in
    ``covered`` (the paths the static fingerprint hashed, relative to the folder holding their
    top-level package): ``{path relative to the nearest root holding it: LoadedFile}``."""
    skip = set(covered)
    found: dict[str, LoadedFile] = {}
    for name, module in list(sys.modules.items()):
        entry = _project_file(name, getattr(module, "__file__", None))
        if entry is None or entry[0] in skip:
            continue
        path = entry[1]
        root = next((r for r in roots if path.is_relative_to(r)), None)
        if root is not None:
            found[path.relative_to(root).as_posix()] = LoadedFile(name, digest_of(path))
    return dict(sorted(found.items()))


def _project_file(name: str, file: object) -> tuple[str, Path] | None:
    """(relative path, resolved file) of a module's source, None when it is not a project
    file (installed, ours, compiled only, no file); classified once per process."""
    if not isinstance(file, str) or name.split(".")[0] in OURS:
        return None
    key = (name, file)
    if key not in _CLASSIFIED:
        _CLASSIFIED[key] = _classify(name, Path(file))
    return _CLASSIFIED[key]


def _classify(name: str, file: Path) -> tuple[str, Path] | None:
    try:
        path = file.resolve()
    except OSError:
        return None
    if path.suffix != ".py" or not path.is_file() or _installed(path, _environment_roots()):
        return None
    if any(part in SKIPPED_DIRS for part in path.parts):
        return None
    parts = name.split(".")
    tail = [*parts, "__init__.py"] if path.name == "__init__.py" else [*parts[:-1], path.name]
    rel = "/".join(tail)
    return (rel, path) if path.as_posix().endswith("/" + rel) else (path.name, path)


def digest_of(path: Path) -> str:
    """The file's content hash (remembered while its size and modification time stay)."""
    try:
        stat = path.stat()
    except OSError:
        return MISSING
    known = _DIGESTS.get(path)
    if known is not None and known[:2] == (stat.st_mtime_ns, stat.st_size):
        return known[2]
    digest = file_digest(path)
    _DIGESTS[path] = (stat.st_mtime_ns, stat.st_size, digest)
    return digest


def current_digest(rel: str, roots: Sequence[Path]) -> str:
    """The content hash the recorded file has now, found under the first project root
    holding it (the roots of the variant it was recorded for); :data:`MISSING` otherwise."""
    for root in roots:
        candidate = root / rel
        if candidate.is_file():
            return digest_of(candidate.resolve())
    return MISSING

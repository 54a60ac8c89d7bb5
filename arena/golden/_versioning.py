"""Dataset versions: a content hash of the cases, version bumps and validated, atomic rewrites.

Every edit made by ``arena golden add|promote`` (and ``arena langsmith import`` into an existing
file) goes through :func:`save_edit`: the edited JSON is validated like any dataset file, the
version is bumped, the new content hash is recorded in ``content_hash`` and a ``changelog``
entry, and the file is replaced atomically (a failed edit leaves the file untouched). The
file keeps its layout: what the edit did not change keeps its text (:mod:`arena.golden._layout`),
so a pull request's diff shows the cases added or changed and the version lines.

Two edits of one file at once (two ``arena golden add --from-shadow`` in parallel CI jobs)
must not lose either: every editor reads, edits and saves under :func:`edit_lock`, an
exclusive lock on the file's folder (no lock file is left behind), so the second waits and
reads the file the first saved.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: threads of one process are still serialised
    fcntl = None  # type: ignore[assignment]

from arena.errors import InputError
from arena.golden._layout import keep_layout
from arena.golden._loader import load_dataset
from arena.golden._models import GoldenDataset

_VERSION = re.compile(r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?$")


def content_hash(dataset: GoldenDataset) -> str:
    """A hash of what the cases ask and expect (and the tools), not of names or versions.

    Reformatting the file, reordering keys or editing the description leaves it unchanged;
    any change to a case (its tier included) changes it.
    """
    body = {
        "available_tools": dataset.available_tools,
        "test_cases": [case.model_dump(mode="json") for case in dataset.test_cases],
    }
    blob = json.dumps(body, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def bump_version(version: str) -> str:
    """The next minor version: ``1.0.0`` -> ``1.1.0``, ``1.4`` -> ``1.5``, ``3`` -> ``4``.

    Raises InputError for a version that is not made of one to three numbers.
    """
    match = _VERSION.match(version.strip())
    if not match:
        raise InputError(
            f"cannot bump version {version!r}: use MAJOR.MINOR.PATCH numbers", field="version"
        )
    major, minor, patch = match.groups()
    if minor is None:
        return str(int(major) + 1)
    if patch is None:
        return f"{major}.{int(minor) + 1}"
    return f"{major}.{int(minor) + 1}.0"


_GUARD = threading.RLock()
_HELD: dict[str, int] = {}


def _lock_folder(path: Path) -> str:
    """The folder whose lock guards edits of ``path``: its own, else the nearest that exists
    (a file being created in a new folder)."""
    folder = path.resolve().parent
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    return str(folder)


@contextmanager
def edit_lock(path: str | Path) -> Iterator[None]:
    """Hold the lock of golden edits of ``path``: read the file, edit it and save it inside,
    so an edit made meanwhile by another process is read, never overwritten. Re-entrant in
    one thread (an edit calling another holds it once); other processes and threads wait."""
    folder = _lock_folder(Path(path))
    with _GUARD:
        if _HELD.get(folder):
            _HELD[folder] += 1
            try:
                yield
            finally:
                _HELD[folder] -= 1
            return
        handle = os.open(folder, os.O_RDONLY)
        try:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_EX)  # released when the handle closes
            _HELD[folder] = 1
            yield
        finally:
            _HELD.pop(folder, None)
            os.close(handle)


def today() -> date:
    """Today's date in UTC (edits are dated by it)."""
    return datetime.now(UTC).date()


def read_raw(path: str | Path) -> dict[str, Any]:
    """The dataset file as a JSON object, validated first (so edits start from a good file)."""
    load_dataset(path)
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    assert isinstance(raw, dict)  # load_dataset checked it
    return raw


def save_edit(
    path: str | Path, raw: dict[str, Any], change: str, on: date | None = None, bump: bool = True
) -> GoldenDataset:
    """Validate an edited dataset, bump its version, record its hash, replace the file.

    ``raw`` is the whole dataset as a JSON object (test cases included) after the edit;
    ``bump=False`` keeps its version (a new file). Raises InputError naming the file (and
    the case and field) when the edit does not validate; the file is then left as it was.
    """
    target = Path(path)
    version = str(raw.get("version", "1.0.0"))
    new_version = bump_version(version) if bump else version
    header = {k: v for k, v in raw.items() if k not in ("test_cases", "content_hash")}
    header["version"] = new_version
    draft = {**header, "test_cases": raw.get("test_cases", [])}
    old_text = _old_text(target)
    made = not target.parent.exists()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.edit-{os.getpid()}.tmp")
    ok = False
    try:
        _write_json(tmp, draft)
        try:
            dataset = load_dataset(tmp)
        except InputError as exc:
            raise InputError(
                f"the edit does not validate: {_bare(exc)}",
                file=str(target),
                case=exc.case,
                field=exc.field,
            ) from None
        digest = content_hash(dataset)
        entry = {
            "version": new_version,
            "date": (on or today()).isoformat(),
            "change": change,
            "content_hash": digest,
        }
        changelog = [*header.pop("changelog", []), entry]
        final = {
            **header,
            "content_hash": digest,
            "changelog": changelog,
            "test_cases": draft["test_cases"],
        }
        _write_json(tmp, final, old_text)
        dataset = load_dataset(tmp)
        os.replace(tmp, target)
        ok = True
    finally:
        tmp.unlink(missing_ok=True)
        if made and not ok:
            target.parent.rmdir()
    return dataset


def _bare(exc: InputError) -> str:
    """The message without its ``file ..., case ..., field ...:`` prefix."""
    prefix = str(InputError("", file=exc.file, case=exc.case, field=exc.field))
    text = str(exc)
    return text[len(prefix) :] if text.startswith(prefix) else text


def _old_text(path: Path) -> str | None:
    """The file's text before the edit, whose layout the edit keeps (None for a new file)."""
    try:
        return path.read_text(encoding="utf-8") if path.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None


def _write_json(path: Path, body: dict[str, Any], old_text: str | None = None) -> None:
    """``body`` as JSON: in ``old_text``'s layout when given (:func:`keep_layout`: the diff
    shows only what the edit changed), else indented by 2."""
    if old_text is not None:
        text = keep_layout(old_text, body)
    else:
        text = json.dumps(body, indent=2, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8")

"""Opening a store never opens the SQLite file outside SQLite.

Closing any descriptor of an SQLite file drops every POSIX lock the process holds on it, so a
second Store in a process that already has the database open (the CLI and the judge runner
open several) would let another process's writes and this one's overwrite each other: two
concurrent `arena judge` processes lost battles that way.
"""

from __future__ import annotations

import builtins
import io
import os
from pathlib import Path
from typing import Any

import pytest

from arena.storage import Store

pytestmark = pytest.mark.unit


def test_a_second_store_does_not_touch_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "arena.db"
    first = Store(f"sqlite:///{db}")
    first.put("k", "m", {"v": 1})
    opened: list[str] = []

    def spy(real: Any) -> Any:
        def wrapper(file: Any, *args: Any, **kwargs: Any) -> Any:
            opened.append(os.fspath(file) if isinstance(file, str | os.PathLike) else "")
            return real(file, *args, **kwargs)

        return wrapper

    monkeypatch.setattr(builtins, "open", spy(builtins.open))
    monkeypatch.setattr(io, "open", spy(io.open))
    monkeypatch.setattr(os, "open", spy(os.open))
    second = Store(f"sqlite:///{db}")
    assert second.get("k") == {"v": 1}
    assert not [p for p in opened if Path(p).resolve() == db.resolve()]

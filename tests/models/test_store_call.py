"""store_call: cheap stores (a dict, a local SQLite file) are called on the event loop, any
other store on a worker thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from arena.models import MemoryResponseStore, store_call
from arena.storage import Store

pytestmark = pytest.mark.unit


class _Where:
    """A store recording the thread each call ran on."""

    def __init__(self, inline: bool | None) -> None:
        if inline is not None:
            self.inline_io = inline
        self.threads: list[int] = []

    def get(self, key: str) -> dict[str, Any] | None:
        self.threads.append(threading.get_ident())
        return {"key": key}


@pytest.mark.parametrize(("inline", "on_loop"), [(True, True), (False, False), (None, False)])
def test_store_call_runs_inline_only_when_the_store_says_so(
    inline: bool | None, on_loop: bool
) -> None:
    store = _Where(inline)

    async def call() -> tuple[int, dict[str, Any] | None]:
        return threading.get_ident(), await store_call(store, store.get, "k")

    loop_thread, value = asyncio.run(call())
    assert value == {"key": "k"}
    assert (store.threads == [loop_thread]) is on_loop


def test_sqlite_and_memory_stores_are_inline(tmp_path: Path) -> None:
    assert MemoryResponseStore().inline_io is True
    with Store(f"sqlite:///{tmp_path / 'a.db'}") as store:
        assert store.inline_io is True
        store.put("k", "m", {"message": {"x": 1}})
        assert store.get("k") == {"message": {"x": 1}}
        store.put("k", "m", {"message": {"x": 2}})  # replaced, as before
        assert store.get("k") == {"message": {"x": 2}}
        store.delete("k")
        assert store.get("k") is None

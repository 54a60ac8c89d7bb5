"""Agents are built once per run and repeat, not per task, and stay correct when shared."""

from __future__ import annotations

import asyncio
import gc
import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage

import arena.runner._agents as agents_module
from arena.agents.research.tools import NO_SANDBOX, build_tools
from arena.golden import GoldenDataset
from arena.models import CachingChatModel, register_fake
from arena.runner import RunOptions, run_suite
from arena.runner._agents import AgentCache
from arena.runner._heap import frozen_heap
from arena.sandbox import TASK_SANDBOX, Sandbox, use_sandbox
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

CASES = 4


def _dataset(n: int = CASES) -> GoldenDataset:
    cases = [{"id": f"W-{i}", "input": f"note {i}", "category": "happy_path"} for i in range(n)]
    return GoldenDataset.model_validate(
        {"name": "t", "available_tools": ["write_file"], "test_cases": cases}
    )


def _writer_script(messages: list[BaseMessage]) -> Any:
    """First turn: write this case's note to the same path every case uses; then answer."""
    note = next(str(m.content) for m in messages if isinstance(m, HumanMessage))
    if any(m.type == "tool" for m in messages):
        return f"wrote {note}"
    return {
        "tool": "write_file",
        "args": {"path": "notes/out.txt", "content": note},
        "id": f"call_{note.replace(' ', '_')}",
    }


def _count_builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    built: list[str] = []
    real = agents_module.build_agent

    def counting(context: Any) -> Any:
        built.append(context.variant.name)
        return real(context)

    monkeypatch.setattr(agents_module, "build_agent", counting)
    return built


def test_a_react_variant_is_built_once_per_repeat(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_fake("cache-writer", [_writer_script], cycle=True)
    built = _count_builds(monkeypatch)
    variant = Variant.model_validate(
        {"name": "writer", "model": {"spec": "fake:cache-writer"}, "tools": ["write_file"]}
    )
    report = run_suite(
        store, _dataset(), [variant], RunOptions(progress=False, repeats=2, concurrency=4)
    )
    assert built == ["writer", "writer"]  # was one build per task (8)
    assert len(report.results) == 2 * CASES and not any(r.error for r in report.results)


def test_shared_tools_write_into_each_tasks_own_sandbox(store: Store) -> None:
    register_fake("cache-writer-2", [_writer_script], cycle=True)
    variant = Variant.model_validate(
        {"name": "writer", "model": {"spec": "fake:cache-writer-2"}, "tools": ["write_file"]}
    )
    report = run_suite(store, _dataset(), [variant], RunOptions(progress=False, concurrency=4))
    for index, result in enumerate(report.results):
        assert result.error is None, result.error
        assert result.files == {"notes/out.txt": f"note {index}"}
        assert result.steps[0].observation.startswith("Wrote 6 characters")


def test_a_factory_is_still_called_for_every_task(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = _count_builds(monkeypatch)
    variant = Variant.model_validate(
        {
            "name": "probe",
            "model": {"spec": "fake:echo"},
            "agent": "tests.agents.hostile_agents:sandbox_prober",
        }
    )
    monkeypatch.setenv("ARENA_TEST_SLEEP", "0")
    report = run_suite(store, _dataset(3), [variant], RunOptions(progress=False))
    assert built == ["probe"] * 3
    folders = {r.output.split(" ")[0] for r in report.results}  # "folder=<its own folder>"
    assert len(folders) == 3 and not any(r.error for r in report.results)


def test_the_cache_shares_per_variant_and_model(tmp_path: Path) -> None:
    cache = AgentCache()
    react = Variant.model_validate({"name": "r", "model": {"spec": "fake:echo"}})
    other = Variant.model_validate({"name": "r2", "model": {"spec": "fake:echo"}, "max_steps": 3})
    one, two = (CachingChatModel(identity="x", namespace=f"repeat={i}") for i in (0, 1))
    sandbox = Sandbox.create(tmp_path / "sandboxes" / "t")
    tools = cache.tools(react, one, sandbox)
    assert cache.tools(react, one, sandbox) is tools
    assert cache.agent(react, one, tools, sandbox) is cache.agent(react, one, tools, sandbox)
    assert cache.tools(react, two, sandbox) is not tools  # another repeat's model
    assert cache.tools(other, one, sandbox) is not tools  # another variant version


def test_task_sandbox_tools_write_where_the_running_task_says(tmp_path: Path) -> None:
    (tool,) = build_tools(model=None, sandbox=TASK_SANDBOX, enabled=["write_file"])
    assert tool.invoke({"path": "a.txt", "content": "x"}) == NO_SANDBOX
    first, second = (Sandbox.create(tmp_path / "sandboxes" / name) for name in ("a", "b"))

    async def write(
        sandbox: Sandbox, text: str, started: asyncio.Event, other: asyncio.Event
    ) -> str:
        with use_sandbox(sandbox):
            started.set()
            await other.wait()  # both tasks are inside their own block now
            return str(await tool.ainvoke({"path": "a.txt", "content": text}))

    async def both() -> list[str]:
        one, two = asyncio.Event(), asyncio.Event()
        return list(
            await asyncio.gather(write(first, "one", one, two), write(second, "two", two, one))
        )

    assert all(out.startswith("Wrote 3 characters") for out in asyncio.run(both()))
    assert first.files() == {"a.txt": "one"} and second.files() == {"a.txt": "two"}
    assert tool.invoke({"path": "a.txt", "content": "x"}) == NO_SANDBOX


def test_the_store_is_read_and_written_off_the_event_loop() -> None:
    both_inside = threading.Barrier(2, timeout=10)

    class MeetingStore:
        """get() returns only once two lookups are in flight at the same time."""

        def __init__(self) -> None:
            self.data: dict[str, Any] = {}

        def get(self, key: str) -> dict[str, Any] | None:
            both_inside.wait()  # a blocked event loop would never start the second lookup
            return self.data.get(key)

        def put(self, key: str, model: str, value: dict[str, Any]) -> None:
            self.data[key] = value

        def delete(self, key: str) -> None:
            self.data.pop(key, None)

    register_fake("offloaded", ["a", "b"])
    from arena.models import ModelConfig, make_chat_model

    config = ModelConfig(spec="fake:offloaded")
    model = CachingChatModel(
        factory=lambda: make_chat_model(config), identity="off", store=MeetingStore()
    )

    async def two() -> list[BaseMessage]:
        return list(await asyncio.gather(model.ainvoke("first"), model.ainvoke("second")))

    replies = asyncio.run(two())
    assert sorted(str(r.content) for r in replies) == ["a", "b"]
    assert len(model.store.data) == 2


def test_the_heap_is_frozen_only_while_runs_execute() -> None:
    assert gc.get_freeze_count() == 0
    with frozen_heap():
        first = gc.get_freeze_count()
        assert first > 0
        with frozen_heap():  # a second, overlapping run
            assert gc.get_freeze_count() >= first
        assert gc.get_freeze_count() > 0  # the outer run still executes
    assert gc.get_freeze_count() == 0

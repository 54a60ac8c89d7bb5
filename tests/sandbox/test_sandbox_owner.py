"""The runner owns the sandbox (issue 47): the generic runner imports no specific agent, the
research agent's shared ``write_file`` writes into the sandbox the runner gives the running
task, and the sandbox's code still versions the built-in agent (its messages reach the model)."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

from arena.agents.research.tools import build_tools
from arena.sandbox import TASK_SANDBOX, Sandbox, TaskSandbox, task_sandbox, use_sandbox
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

RUNNER = Path(__file__).parents[2] / "arena" / "runner"


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at its top, inside a function or for type checkers."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def test_the_runner_imports_no_specific_agent() -> None:
    imported = {path.name: _imports(path) for path in sorted(RUNNER.glob("*.py"))}
    research = {
        name: sorted(m for m in modules if m.startswith("arena.agents.research"))
        for name, modules in imported.items()
    }
    assert {name: found for name, found in research.items() if found} == {}
    assert any("arena.sandbox" in modules for modules in imported.values())


def test_a_shared_tool_writes_into_the_sandbox_of_the_running_task(tmp_path: Path) -> None:
    (writer,) = build_tools(model=None, sandbox=TASK_SANDBOX, enabled=["write_file"])
    base = tmp_path / "sandboxes"
    first, second = (Sandbox.create(base / name, base=base) for name in ("a", "b"))
    assert isinstance(TASK_SANDBOX, TaskSandbox) and task_sandbox(TASK_SANDBOX) is None
    assert task_sandbox(first) is first and task_sandbox(None) is None

    async def task(sandbox: Sandbox, text: str) -> None:
        with use_sandbox(sandbox):
            await asyncio.sleep(0)  # the other task runs in between, under its own sandbox
            assert task_sandbox(TASK_SANDBOX) is sandbox
            said = await writer.ainvoke({"path": "out.txt", "content": text})
            assert str(said).startswith("Wrote ")

    async def both() -> None:
        await asyncio.gather(task(first, "first"), task(second, "second"))

    asyncio.run(both())
    assert task_sandbox(TASK_SANDBOX) is None  # outside every task: none
    assert first.release() == {"out.txt": "first"}
    assert second.release() == {"out.txt": "second"}


def test_the_sandbox_code_is_part_of_the_built_in_agents_version() -> None:
    code = Variant.model_validate({"name": "r", "model": {"spec": "fake:echo"}}).version.code
    assert "arena/sandbox.py" in code
    assert not any(name.startswith("arena/agents/research/sandbox") for name in code)

"""The runner hands every agent of a run its tools through the run option ``wrap_tools``
(what a mutation pass injects its faults with), inline and through an executor alike; a
variant itself has no say in it (issue 47)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.tools import BaseTool, StructuredTool

from arena.executors._local import LocalExecutor
from arena.models import register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from tests.runner.test_agent_cache import _dataset, _writer_script

pytestmark = pytest.mark.unit

FULL = "Error: the disk is full"


class DiskFull:
    """A run option: ``write_file`` answers that the disk is full (module level: picklable)."""

    def __call__(self, tools: list[BaseTool]) -> list[BaseTool]:
        def full(path: str, content: str) -> str:
            return FULL

        return [
            StructuredTool.from_function(full, name=t.name, description=t.description)
            if t.name == "write_file"
            else t
            for t in tools
        ]


def _observations(store: Store, name: str, **options: Any) -> list[str]:
    register_fake(name, [_writer_script], cycle=True)
    variant = Variant.model_validate(
        {"name": name, "model": {"spec": f"fake:{name}"}, "tools": ["write_file"]}
    )
    report = run_suite(store, _dataset(2), [variant], RunOptions(progress=False, **options))
    assert not any(r.error for r in report.results)
    return [r.steps[0].observation for r in report.results]


@pytest.mark.parametrize("executor", [None, LocalExecutor()], ids=["inline", "executor"])
def test_the_run_option_wraps_the_tools_the_agent_is_given(
    store: Store, executor: LocalExecutor | None
) -> None:
    wrapped = _observations(store, "wrap-full", wrap_tools=DiskFull(), executor=executor)
    assert wrapped == [FULL, FULL]
    plain = _observations(store, "wrap-none", executor=executor)
    assert all(o.startswith("Wrote ") for o in plain)
    assert not hasattr(Variant, "agent_tools")

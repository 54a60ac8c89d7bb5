"""An arena variant as a LangSmith target: ``inputs`` in, the agent's answer and trajectory out.

``AgentTarget(variant)`` runs the variant's agent (the Research Agent, or your own factory)
on ``inputs["query"]`` exactly as ``arena run`` does (same tools, sandbox, time limit and
response cache) and returns :func:`outputs_from_result` of the result. Give it the run's
``Store`` and it reuses the cached replies of ``arena run`` (and vice versa).
"""

from __future__ import annotations

import asyncio
import hashlib
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.golden._models import GoldenCase
from arena.langsmith._evaluators import outputs_from_result
from arena.langsmith._examples import query_of
from arena.paths import safe_name, sandbox_base
from arena.variants.variant import Variant, load_variant

if TYPE_CHECKING:
    from arena.models import ResponseStore
    from arena.records.results import RunResult


class AgentTarget:
    """A callable ``target(inputs) -> outputs`` for ``langsmith.evaluate``."""

    def __init__(
        self,
        variant: Variant | str | Path,
        *,
        store: ResponseStore | None = None,
        timeout_s: float = 600.0,
        repeat: int = 0,
    ) -> None:
        self.variant = variant if isinstance(variant, Variant) else load_variant(variant)
        self.timeout_s = timeout_s
        self.repeat = repeat
        from arena.models import MemoryResponseStore

        self.store: ResponseStore = store if store is not None else MemoryResponseStore()
        self.results: list[RunResult] = []
        self.by_query: dict[str, RunResult] = {}
        self.__name__ = f"arena:{self.variant.name}"

    def run(self, query: str) -> RunResult:
        """Run the agent once on ``query`` and return the arena result."""
        digest = hashlib.sha256(query.encode()).hexdigest()[:10]
        return self.run_case(
            GoldenCase(id=f"langsmith-{digest}", input=query, category="happy_path")
        )

    def run_case(self, case: GoldenCase) -> RunResult:
        """Run the agent on a golden case (its ``timeout_s`` wins over the target's)."""
        from arena.models import CachingChatModel, make_chat_model
        from arena.runner import execute_task
        from arena.runner._tasks import Task

        config = self.variant.model
        model = CachingChatModel(
            factory=lambda: make_chat_model(config),
            identity=config.cache_identity(),
            namespace=f"repeat={self.repeat}",
            store=self.store,
        )
        task = Task(self.variant, case, self.repeat)
        folder = sandbox_base() / "langsmith" / safe_name(self.variant.name) / safe_name(case.id)
        with _no_upload_when_local():
            result = asyncio.run(
                execute_task(task, model, folder, 0, case.timeout_s or self.timeout_s)
            )
        self.results.append(result)
        self.by_query[case.input] = result
        return result

    def __call__(self, inputs: dict[str, Any]) -> dict[str, Any]:
        return outputs_from_result(self.run(query_of(inputs)))


def _no_upload_when_local() -> AbstractContextManager[Any]:
    """Under ``evaluate(..., upload_results=False)`` tracing is ``"local"``, which
    langchain-core reads as enabled and would send the agent's nested runs (found by the
    contract test); switch tracing off for the agent then, and leave it alone otherwise."""
    from langsmith.run_helpers import get_tracing_context, tracing_context

    if get_tracing_context().get("enabled") == "local":
        return tracing_context(enabled=False)
    return nullcontext()

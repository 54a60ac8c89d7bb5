"""LangSmith both ways: evaluators, datasets, experiments, traces and pytest.

Everything works offline; only :func:`make_client` (and what takes its client) talks to
LangSmith, and only when ``LANGSMITH_API_KEY`` is set. Names load lazily, so importing this
package does not import the ``langsmith`` SDK.

* evaluators: :data:`arena_evaluators`, :func:`make_evaluators`, :func:`trajectory_match`;
* a target: :class:`AgentTarget` (a variant's agent as ``target(inputs) -> outputs``);
* examples: :func:`case_to_example`, :func:`example_to_case`, :func:`write_jsonl`,
  :func:`read_examples`, :func:`import_examples`;
* the service: :func:`langsmith_configured`, :func:`make_client`, :func:`upload_dataset`,
  :func:`fetch_examples`, :func:`push_run`;
* pytest: :class:`GoldenSuite`, :func:`mark_langsmith_items`, :func:`gate_failures`,
  :func:`langsmith_active`, :class:`GoldenCaseWarning`.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "arena_evaluators": "arena.langsmith._evaluators",
    "make_evaluators": "arena.langsmith._evaluators",
    "trajectory_match": "arena.langsmith._evaluators",
    "outputs_from_result": "arena.langsmith._evaluators",
    "result_from_outputs": "arena.langsmith._evaluators",
    "AgentTarget": "arena.langsmith._target",
    "case_to_example": "arena.langsmith._examples",
    "example_to_case": "arena.langsmith._examples",
    "write_jsonl": "arena.langsmith._files",
    "read_examples": "arena.langsmith._files",
    "import_examples": "arena.langsmith._importer",
    "ImportReport": "arena.langsmith._importer",
    "langsmith_configured": "arena.langsmith._client",
    "make_client": "arena.langsmith._client",
    "upload_dataset": "arena.langsmith._client",
    "fetch_examples": "arena.langsmith._client",
    "DatasetSync": "arena.langsmith._client",
    "push_run": "arena.langsmith._experiments",
    "PushReport": "arena.langsmith._experiments",
    "GoldenSuite": "arena.langsmith._testing",
    "GoldenCaseWarning": "arena.langsmith._testing",
    "gate_failures": "arena.langsmith._testing",
    "langsmith_active": "arena.langsmith._testing",
    "mark_langsmith_items": "arena.langsmith._testing",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.langsmith' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

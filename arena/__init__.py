"""agent-arena: does a change to an LLM agent make it better or worse?

Public names load lazily so ``import arena`` stays fast; heavy libraries (LangChain,
LangGraph, SQLAlchemy, numpy) load only when a feature that needs them is used.
"""

from __future__ import annotations

import importlib
from typing import Any

from arena._version import __version__

_EXPORTS = {
    "GoldenCase": "arena.golden",
    "GoldenDataset": "arena.golden",
    "load_dataset": "arena.golden",
    "Variant": "arena.variants.variant",
    "load_variant": "arena.variants.variant",
    "load_variants": "arena.variants.variant",
    "ModelConfig": "arena.models",
    "make_chat_model": "arena.models",
    "register_fake": "arena.models",
    "RunResult": "arena.records.results",
    "TrajectoryStep": "arena.records.results",
    "GraphStates": "arena.records.graph_state",
    "agentevals_trajectory": "arena.records.graph_trajectory",
    "RunOptions": "arena.runner",
    "RunReport": "arena.runner",
    "run_suite": "arena.runner",
    "Store": "arena.storage",
    "AgentContext": "arena.agents",
    "agent_factory": "arena.agents",
    "SequentialOptions": "arena.compare.sequential._driver",
    "run_sequential": "arena.compare.sequential._driver",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

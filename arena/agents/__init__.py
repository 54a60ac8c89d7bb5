"""Agents under test: the built-in Research Agent architectures and bring-your-own factories.

Public names load on first use: the architectures' registry
(:mod:`arena.agents._architectures`) is read without loading LangChain.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from arena.agents._architectures import AGENTS

if TYPE_CHECKING:  # the real names, for type checkers
    from arena.agents._builder import build_agent, check_agent, extract_output, graph_tool_names
    from arena.agents._context import AgentContext, AgentFactory, StateFunction
    from arena.factories._declare import FactorySpec, agent_factory, factory_spec
    from arena.factories._imports import add_project_root

_EXPORTS = {
    "build_agent": "arena.agents._builder",
    "check_agent": "arena.agents._builder",
    "extract_output": "arena.agents._builder",
    "graph_tool_names": "arena.agents._builder",
    "AgentContext": "arena.agents._context",
    "AgentFactory": "arena.agents._context",
    "StateFunction": "arena.agents._context",
    "FactorySpec": "arena.factories._declare",
    "agent_factory": "arena.factories._declare",
    "factory_spec": "arena.factories._declare",
    "add_project_root": "arena.factories._imports",
}


__all__ = [
    "AGENTS",
    "AgentContext",
    "AgentFactory",
    "FactorySpec",
    "StateFunction",
    "add_project_root",
    "agent_factory",
    "build_agent",
    "check_agent",
    "extract_output",
    "factory_spec",
    "graph_tool_names",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.agents' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

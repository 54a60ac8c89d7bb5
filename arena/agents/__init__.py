"""Agents under test: the built-in Research Agent architectures and bring-your-own factories."""

from arena.agents._builder import build_agent, check_agent, extract_output, graph_tool_names
from arena.agents._context import AGENTS, AgentContext, AgentFactory, StateFunction
from arena.factories._declare import FactorySpec, agent_factory, factory_spec
from arena.factories._imports import add_project_root

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

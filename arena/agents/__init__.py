"""Agents under test: the built-in Research Agent architectures and bring-your-own factories."""

from arena.agents.builder import build_agent, check_agent, extract_output
from arena.agents.context import AgentContext

__all__ = ["AgentContext", "build_agent", "check_agent", "extract_output"]

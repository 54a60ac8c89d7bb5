"""The seeds' Research Agent: tools over an offline corpus, react and supervisor graphs."""

from arena.agents.research.react import build_react_agent
from arena.agents.research.supervisor import (
    build_supervisor_agent,
    decompose_task,
    default_subtasks,
    supervisor_route,
)

__all__ = [
    "build_react_agent",
    "build_supervisor_agent",
    "decompose_task",
    "default_subtasks",
    "supervisor_route",
]

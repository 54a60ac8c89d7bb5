"""Scripted replies for a supervisor run of the "Japan's GDP, then 5% of it" case.

Shared by the supervisor tests: the plan (researcher, then analyst), the routing (analyst after the
researcher, then the writer, then FINISH), the researcher's search and the analyst's calculation.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import BaseMessage


def _next_worker(done: str) -> str:
    if '"researcher"' in done and '"analyst"' not in done:
        return "analyst"
    return "writer" if '"writer"' not in done else "FINISH"


def gdp_supervisor_reply(messages: list[BaseMessage]) -> Any | None:
    """Reply as the supervisor, the researcher or the analyst; None for anyone else (the writer)."""
    text = str(messages[-1].content)
    system = str(messages[0].content) if messages else ""
    if text.startswith("Split the user's request"):
        return json.dumps(
            [
                {"id": "r", "description": "find GDP", "assigned_to": "researcher"},
                {"id": "a", "description": "compute", "assigned_to": "analyst"},
            ]
        )
    if text.startswith("You coordinate workers"):
        done = text.split("Done so far: ", 1)[1]
        decision = {"next_agent": _next_worker(done), "task_for_agent": "go", "reasoning": "r"}
        return json.dumps(decision)
    if messages[-1].type == "tool":
        return f"Result: {messages[-1].content}"
    if "Researcher" in system:
        return {"tool": "search_web", "args": {"query": "Japan GDP"}}
    if "Analyst" in system:
        return {"tool": "calculate", "args": {"expression": "4.2e12 * 0.05"}}
    return None

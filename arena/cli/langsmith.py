"""``arena langsmith export|import|push``: datasets and experiments both ways."""

from __future__ import annotations

from typing import Any


def register(sub: Any) -> None:
    """Add the langsmith sub-command (filled in below)."""
    sub.add_parser("langsmith", help="LangSmith datasets and experiments")

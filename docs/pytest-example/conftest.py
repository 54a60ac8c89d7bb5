"""Marks the golden tests for LangSmith's pytest plugin when it is active and configured."""

from __future__ import annotations

import pytest

from arena.langsmith import mark_langsmith_items


def pytest_configure(config: pytest.Config) -> None:
    # Registered here too, so --strict-markers passes when the plugin is disabled.
    config.addinivalue_line("markers", "langsmith: LangSmith test tracking")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mark_langsmith_items(config, items)

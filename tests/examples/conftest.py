"""Shared, expensive setup of the example tests: built once per session (per xdist worker),
and every test works on a copy of its own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.examples.test_own_agent_example import EXAMPLE, User


@pytest.fixture(scope="session")
def gated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/own-agent with its baseline run and saved and the gate passing once (a cached
    database): three CLI processes, once. Never edited: tests copy it (:func:`gated`)."""
    user = User(tmp_path_factory.mktemp("gated") / "own-agent")
    shutil.copytree(EXAMPLE, user.folder)
    user.arena("run", "--variants", "variants/baseline.yaml", "--dataset", "golden/kitchen.json")
    user.arena("baseline", "save", "baseline", "--export", "baselines/baseline.json")
    assert user.json("gate")["passed"] is True
    return user.folder


@pytest.fixture
def gated(gated_template: Path, tmp_path: Path) -> User:
    """A copy of :func:`gated_template` (folder, database, reports) for one test to edit."""
    folder = tmp_path / "own-agent"
    shutil.copytree(gated_template, folder)
    return User(folder)

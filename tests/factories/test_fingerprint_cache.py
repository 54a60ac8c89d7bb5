"""The agent's version reads its project's imports from each file's content: a file is
parsed once per content (the full suite's agents live under ``tests``, 550 files walked on
every run), and an edit is always seen, in the same process."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from arena.factories import _fingerprint as fingerprint
from arena.factories import package_files

pytestmark = pytest.mark.unit


def _project(root: Path) -> None:
    (root / "cacheburrow_desk").mkdir()
    (root / "cacheburrow_desk" / "__init__.py").write_text("")
    (root / "cacheburrow_desk" / "agent.py").write_text("import cacheburrow_policy\n")
    (root / "cacheburrow_policy.py").write_text("DECLINE = False\n")
    (root / "cacheburrow_rules.py").write_text("RULES = []\n")


def test_an_edit_is_seen_and_unchanged_files_are_not_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    _project(tmp_path)
    importlib.invalidate_caches()
    first = package_files("cacheburrow_desk.agent")
    assert "cacheburrow_policy.py" in first and "cacheburrow_rules.py" not in first
    parsed = set(fingerprint._IMPORTS_BY_CONTENT)
    assert package_files("cacheburrow_desk.agent") == first
    assert set(fingerprint._IMPORTS_BY_CONTENT) == parsed  # nothing parsed again

    agent = tmp_path / "cacheburrow_desk" / "agent.py"
    agent.write_text("import cacheburrow_policy\nimport cacheburrow_rules\n")
    second = package_files("cacheburrow_desk.agent")
    assert "cacheburrow_rules.py" in second  # the edit is followed at once
    assert second["cacheburrow_desk/agent.py"] != first["cacheburrow_desk/agent.py"]
    # parsed: the edited file and the module it now imports, nothing else
    assert len(set(fingerprint._IMPORTS_BY_CONTENT) - parsed) == 2

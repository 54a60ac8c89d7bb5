"""`arena init-ci` triggers the gate on every project file the variant's version hashes: a
top-level module the factory's package imports is a trigger path too (trial 2, finding: a
pull request changing only ``deskpolicy.py`` never ran the gate)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena.cli import main
from arena.factories import package_files

pytestmark = pytest.mark.unit


def _project(root: Path, package: str, policy: str) -> None:
    (root / "golden").mkdir()
    (root / "golden" / "desk.json").write_text("{}")
    (root / "variants").mkdir()
    (root / "variants" / "base.yaml").write_text(
        f"name: base\nagent: {package}.agent:build\nmodel: {{spec: 'fake:echo'}}\n"
    )
    (root / package).mkdir()
    (root / package / "__init__.py").write_text("")
    (root / package / "agent.py").write_text(
        f"def build(ctx):\n    import {policy}\n    return {policy}.DECLINE\n"
    )
    (root / f"{policy}.py").write_text("DECLINE = False\n")


def test_a_module_the_agent_imports_is_a_trigger_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = list(sys.path)
    _project(tmp_path, "ciburrow_desk", "ciburrow_policy")
    assert main(["init-ci", "--dir", str(tmp_path)]) == 0
    gate = (tmp_path / ".github" / "workflows" / "arena-gate.yml").read_text()
    assert '- "ciburrow_desk/**"' in gate and '- "ciburrow_policy.py"' in gate
    said = capsys.readouterr().out
    assert "ciburrow_policy.py" in said.split("pull requests run the gate when these change:")[1]
    assert sys.path == before  # nothing left importable from the scan
    sys.path.insert(0, str(tmp_path))  # the same files the version hashes
    assert "ciburrow_policy.py" in package_files("ciburrow_desk.agent")

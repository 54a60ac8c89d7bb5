"""`arena init-ci` installs the repository's own package too (agent factories import from it),
and says what the workflows install."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main

pytestmark = pytest.mark.unit


def _gate(root: Path) -> str:
    return (root / ".github" / "workflows" / "arena-gate.yml").read_text()


def test_a_repository_with_a_package_gets_it_installed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'kitchen'\n")
    assert main(["init-ci", "--dir", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert "then your project: pip install ." in said
    assert 'ARENA_PROJECT_INSTALL: "."' in _gate(tmp_path)
    nightly = (tmp_path / ".github" / "workflows" / "arena-nightly.yml").read_text()
    assert 'python -m pip install "$ARENA_PROJECT_INSTALL"' in nightly


def test_without_a_package_only_agent_arena_is_installed_and_it_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init-ci", "--dir", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert "agent-arena[local] only" in said and "--install-project" in said
    assert 'ARENA_PROJECT_INSTALL: ""' in _gate(tmp_path)


def test_the_project_spec_can_be_given_or_turned_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "setup.py").write_text("")
    argv = ["init-ci", "--dir", str(tmp_path), "--install-project", ".[agents]", "--force"]
    assert main(argv) == 0
    assert 'ARENA_PROJECT_INSTALL: ".[agents]"' in _gate(tmp_path)
    assert main([*argv[:3], "--install-project", "none", "--force"]) == 0
    assert 'ARENA_PROJECT_INSTALL: ""' in _gate(tmp_path)
    assert "only" in capsys.readouterr().out.splitlines()[-1]

"""`arena demo` on scripted models: each step header numbered once, and its last lines say
exactly what to type next in the shell that ran it (README's first command does not activate
the virtual environment, so a bare `arena` is not on that shell's PATH yet)."""

from __future__ import annotations

import os
import re
import subprocess
import venv
from pathlib import Path

import pytest

from arena.cli import main
from arena.cli.next_steps import next_steps
from tests.packaging.test_from_the_wheel import DEMO_SCRIPTS

pytestmark = pytest.mark.unit


def _venv(root: Path) -> Path:
    """A folder shaped like a virtual environment with ``arena`` installed."""
    bin_ = root / ".venv" / "bin"
    bin_.mkdir(parents=True)
    (bin_ / "activate").write_text(f'export PATH="{bin_}:$PATH"\n')
    (bin_ / "arena").write_text('#!/bin/sh\necho arena "$@"\n')
    (bin_ / "arena").chmod(0o755)
    return root / ".venv"


def _commands(lines: list[str]) -> list[str]:
    return re.findall(r"`([^`]+)`", "\n".join(lines))


def test_without_arena_on_the_path_it_says_how_to_activate(tmp_path: Path) -> None:
    prefix = _venv(tmp_path)
    lines = next_steps(prefix=prefix, path="/usr/bin:/bin", cwd=tmp_path)
    commands = _commands(lines)
    assert commands[0] == "source .venv/bin/activate"
    assert "arena app" in commands and ".venv/bin/arena app" in commands
    assert {"arena runs", "arena score", "arena ratings", "arena health"} <= set(commands)


def test_the_commands_it_names_work_in_a_shell(tmp_path: Path) -> None:
    """Pasted into a shell in the demo's folder, each named command runs the venv's arena."""
    prefix = _venv(tmp_path)
    commands = _commands(next_steps(prefix=prefix, path="/usr/bin:/bin", cwd=tmp_path))
    activate, *rest = commands
    script = "\n".join([activate, *rest])
    done = subprocess.run(
        ["bash", "-e", "-c", script],
        cwd=tmp_path,
        env={**os.environ, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "arena app"


def test_with_arena_on_the_path_it_names_the_commands_as_is(tmp_path: Path) -> None:
    prefix = _venv(tmp_path)
    lines = next_steps(prefix=prefix, path=f"{prefix / 'bin'}:/usr/bin", cwd=tmp_path)
    assert _commands(lines)[0] == "arena app"
    assert "activate" not in "\n".join(lines)


def test_a_database_given_with_db_is_named_again(tmp_path: Path) -> None:
    prefix = _venv(tmp_path)
    lines = next_steps("sqlite:////x/demo.db", prefix=prefix, path="/bin", cwd=tmp_path)
    assert "arena app --db sqlite:////x/demo.db" in _commands(lines)
    assert ".venv/bin/arena app --db sqlite:////x/demo.db" in _commands(lines)


def test_outside_a_virtual_environment_it_names_the_module(tmp_path: Path) -> None:
    bare = tmp_path / "python"
    (bare / "bin").mkdir(parents=True)
    lines = next_steps(prefix=bare, path="/bin", cwd=tmp_path)
    assert _commands(lines)[0].endswith(" -m arena.cli app")


def test_a_real_virtual_environment_activates(tmp_path: Path) -> None:
    """The activation line names the venv's real activate script."""
    venv.create(tmp_path / ".venv", with_pip=False)
    (tmp_path / ".venv" / "bin" / "arena").write_text("#!/bin/sh\necho ok\n")
    (tmp_path / ".venv" / "bin" / "arena").chmod(0o755)
    commands = _commands(next_steps(prefix=tmp_path / ".venv", path="/usr/bin:/bin", cwd=tmp_path))
    done = subprocess.run(
        ["bash", "-e", "-c", f"{commands[0]}\ncommand -v arena\n{commands[1]}"],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(tmp_path / ".venv" / "bin" / "arena"), "ok"]


@pytest.mark.system  # the whole demo on scripted models: seconds
def test_the_demo_numbers_each_step_once_and_ends_with_what_to_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scripts = tmp_path / "scripts.yaml"
    scripts.write_text(DEMO_SCRIPTS)
    monkeypatch.setenv("ARENA_SANDBOX_DIR", str(tmp_path / "sandboxes"))
    monkeypatch.chdir(tmp_path)
    argv = ["--fake-scripts", str(scripts), "demo", "--judge", "local:qwen2.5-coder-1.5b/text",
            "--second-judge", "local:qwen2.5-coder-1.5b/grades", "--bootstrap", "20"]  # fmt: skip
    assert main(argv) == 0
    out, err = capsys.readouterr()
    headers = re.findall(r"^== (\d+)/(\d+) ", err, re.M)
    assert [int(n) for n, _ in headers] == [1, 2, 3, 4, 5]
    assert {total for _, total in headers} == {"5"}
    assert "grades" in err.split("== 3/5", 1)[1].split("\n", 1)[0]
    end = out.rstrip("\n").split("\n")
    assert end[-len(next_steps()) :] == next_steps()
    assert "stored in sqlite:///arena.db" in out

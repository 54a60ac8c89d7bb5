"""The built distribution, once per session: ``python -m build`` makes the sdist and then the
wheel from that sdist (so the sdist provably holds everything the wheel needs), and the wheel
is installed into a fresh virtual environment outside the checkout, where every test of this
folder runs ``arena`` from an empty directory with nothing of the checkout on its path."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 600


@dataclass(frozen=True)
class Artifacts:
    """The sdist and the wheel built from it, and what the build printed."""

    sdist: Path
    wheel: Path
    log: str = ""


@dataclass(frozen=True)
class WheelEnv:
    """A virtual environment holding only the wheel and its dependencies, and what pip
    printed installing it."""

    root: Path
    install_log: str = ""

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"

    @property
    def arena(self) -> Path:
        return self.root / "bin" / "arena"

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a user of the wheel: no checkout, no dev venv, no ARENA_*, and
        Python writing bytecode as it does by default. The venv is installed uncompiled, so
        under an image's PYTHONDONTWRITEBYTECODE every process of the session would compile
        every module it imports again (about 2 s of CPU an ``arena`` command); written by the
        first one, it is read by the rest."""
        drop = (
            "PYTHONPATH",
            "VIRTUAL_ENV",
            "PYTHONHOME",
            "PYTHONSTARTUP",
            "PYTHONDONTWRITEBYTECODE",
        )
        env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("ARENA_")}
        env["PATH"] = f"{self.root / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        return {**env, **extra}

    def run(
        self, cwd: Path, *argv: str | Path, timeout: float = 300, **env: str
    ) -> subprocess.CompletedProcess[str]:
        """``argv`` (its first item a program of the venv) in ``cwd``; checked exit 0."""
        done = subprocess.run(
            [str(a) for a in argv],
            cwd=cwd,
            env=self.env(**env),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, (argv, done.stdout[-3000:], done.stderr[-3000:])
        return done


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Artifacts:
    """``python -m build``: the sdist, then the wheel built from the unpacked sdist."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return Artifacts(sdist=sdist, wheel=wheel, log=done.stdout + done.stderr)


@pytest.fixture(scope="session")
def wheel_env(artifacts: Artifacts, tmp_path_factory: pytest.TempPathFactory) -> WheelEnv:
    """A new virtual environment (outside the checkout) with the wheel installed by pip."""
    root = tmp_path_factory.mktemp("wheel-venv") / "venv"
    venv.create(root, with_pip=True)
    env = WheelEnv(root)
    # --no-compile: Python compiles what it imports, once (see WheelEnv.env); compiling every
    # dependency up front would double the install time of the one venv of the session.
    done = env.run(root, env.python, "-m", "pip", "install", "--quiet", "--no-compile",
                   artifacts.wheel, timeout=BUILD_TIMEOUT_S)  # fmt: skip
    return WheelEnv(root, install_log=done.stdout + done.stderr)


@pytest.fixture
def empty_dir(tmp_path: Path) -> Iterator[Path]:
    """An empty working directory, far from the checkout."""
    folder = tmp_path / "empty"
    folder.mkdir()
    assert not folder.resolve().is_relative_to(REPO)
    yield folder

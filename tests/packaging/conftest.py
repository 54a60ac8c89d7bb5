"""The built distribution, once per session: ``python -m build`` makes the sdist and then the
wheel from that sdist (so the sdist provably holds everything the wheel needs), and the wheel
is installed into a fresh virtual environment outside the checkout, where every test of this
folder runs ``arena`` from an empty directory with nothing of the checkout on its path."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import venv
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT_S = 600
DIST_DIR_ENV = "ARENA_TEST_DIST_DIR"
"""A folder for the built sdist and wheel shared by the sessions of one checkout (unset: each
session builds its own)."""


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
    with _folder("dist", tmp_path_factory) as out:
        return _built(out)


@pytest.fixture(scope="session")
def wheel_env(artifacts: Artifacts, tmp_path_factory: pytest.TempPathFactory) -> WheelEnv:
    """A new virtual environment (outside the checkout) with the wheel installed by pip."""
    with _folder("wheel-venv", tmp_path_factory) as home:
        return _installed(home, artifacts)


@contextmanager
def _folder(name: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The session's folder ``name``, held under a lock while the fixture fills it. Where
    :data:`DIST_DIR_ENV` names a folder, its ``name`` is made once and the sessions after the
    first read it (``.ci/run`` runs two sessions on one checkout)."""
    shared = os.environ.get(DIST_DIR_ENV)
    folder = Path(shared) / name if shared else tmp_path_factory.mktemp(name)
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build, whichever session or worker asks first
        yield folder


def _built(out: Path) -> Artifacts:
    """The artifacts in ``out``, built unless a finished build (its log) is there."""
    log = out / "build.log"
    if not log.exists():
        done = subprocess.run(
            [sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT_S,
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        log.write_text(done.stdout + done.stderr)
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return Artifacts(sdist=sdist, wheel=wheel, log=log.read_text())


def _installed(home: Path, artifacts: Artifacts) -> WheelEnv:
    """The venv in ``home`` with the wheel, installed unless a finished install (its log) is
    there."""
    log, env = home / "install.log", WheelEnv(home / "venv")
    if not log.exists():
        shutil.rmtree(env.root, ignore_errors=True)  # what an interrupted session left
        venv.create(env.root, with_pip=True)
        # --no-compile: Python compiles what it imports, once (see WheelEnv.env); compiling
        # every dependency up front would double the install time of the one venv.
        done = env.run(home, env.python, "-m", "pip", "install", "--quiet", "--no-compile",
                       artifacts.wheel, timeout=BUILD_TIMEOUT_S)  # fmt: skip
        log.write_text(done.stdout + done.stderr)
    return WheelEnv(env.root, install_log=log.read_text())


@pytest.fixture
def empty_dir(tmp_path: Path) -> Iterator[Path]:
    """An empty working directory, far from the checkout."""
    folder = tmp_path / "empty"
    folder.mkdir()
    assert not folder.resolve().is_relative_to(REPO)
    yield folder

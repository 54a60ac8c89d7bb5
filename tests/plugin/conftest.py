"""The test plugin package (tests/plugin_package), pip-installed once per session into a
folder of its own: the running venv stays as it was, and every process started with
:func:`plugin_env` (the CLI, Ray nodes) finds its entry points on ``PYTHONPATH``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tests" / "plugin_package"


def install_plugin(target: Path) -> Path:
    """``pip install --no-deps --target`` of a copy of the plugin package (offline)."""
    source = target.parent / "plugin-source"
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return target


def plugin_env(target: Path) -> dict[str, str]:
    """This environment with the installed plugin (and this checkout) first on the path."""
    path = os.pathsep.join([str(target), str(ROOT), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path.rstrip(os.pathsep)}


@pytest.fixture(scope="session")
def plugin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the plugin is installed."""
    return install_plugin(tmp_path_factory.mktemp("plugin") / "site")

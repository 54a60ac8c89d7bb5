"""The build step that ships the repository's ``data/`` inside the package.

The top-level ``data/`` stays the one source of the golden sets, variants, prompts, research
corpus and ``pricing.yaml``; building a wheel copies it into the package as ``arena/_data``,
where :func:`arena.paths.data_dir` finds it with ``importlib.resources``. An editable install
copies nothing: it reads the checkout's ``data/`` directly. Everything else is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SOURCE = Path(__file__).resolve().parent / "data"
TARGET = ("arena", "_data")  # arena.paths.PACKAGED_DATA
JUNK = shutil.ignore_patterns("__pycache__", "*.py[cod]", ".*")


class BuildWithData(build_py):
    """``build_py`` that also copies ``data/`` to ``arena/_data`` in the build folder."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        if not SOURCE.is_dir():
            raise FileNotFoundError(f"{SOURCE} is missing: the sdist must include data/")
        target = Path(self.build_lib).joinpath(*TARGET)
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(SOURCE, target, ignore=JUNK)


setup(cmdclass={"build_py": BuildWithData})

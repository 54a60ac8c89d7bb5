"""Tests mirror packages: every package of ``arena`` and ``judges`` has its folder
``tests/<package>/`` holding at least one test module.

A package is a folder directly under ``arena/`` with an ``__init__.py`` (``arena/trust`` is
``tests/trust/``), and ``judges`` itself (``tests/judges/``). A test belongs in the folder of
the package it exercises; cross-cutting folders (``tests/docs``, ``tests/faults``,
``tests/fuzz``, ``tests/cluster``, ...) sit beside them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[1]


def packages(root: Path = ROOT) -> list[str]:
    """The packages of ``arena`` (its sub-folders with an ``__init__.py``) and ``judges``."""
    found = sorted(p.name for p in (root / "arena").iterdir() if (p / "__init__.py").is_file())
    return [*found, "judges"]


def without_tests(root: Path = ROOT) -> list[str]:
    """The packages whose folder ``tests/<package>/`` is missing or holds no ``test_*.py``."""
    return [name for name in packages(root) if not any((root / "tests" / name).glob("test_*.py"))]


def test_every_package_has_a_tests_folder_with_a_test() -> None:
    missing = without_tests()
    assert missing == [], "add tests/<package>/test_*.py for: " + ", ".join(missing)


def test_the_check_names_a_package_without_tests(tmp_path: Path) -> None:
    # a package with an empty tests folder, and one with none, are both named
    for name in ("quiet", "told"):
        (tmp_path / "arena" / name).mkdir(parents=True)
        (tmp_path / "arena" / name / "__init__.py").write_text("")
    (tmp_path / "arena" / "data").mkdir()  # not a package
    (tmp_path / "judges").mkdir()
    (tmp_path / "tests" / "quiet").mkdir(parents=True)
    (tmp_path / "tests" / "quiet" / "__init__.py").write_text("")
    (tmp_path / "tests" / "judges").mkdir()
    (tmp_path / "tests" / "judges" / "test_x.py").write_text("")
    assert packages(tmp_path) == ["quiet", "told", "judges"]
    assert without_tests(tmp_path) == ["quiet", "told"]

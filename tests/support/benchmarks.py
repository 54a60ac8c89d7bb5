"""A module of the ``benchmarks`` suite, for the tests that drive it."""

from __future__ import annotations

import importlib
from types import ModuleType


def load_benchmark(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as the module ``benchmarks.NAME``."""
    return importlib.import_module(f"benchmarks.{name}")

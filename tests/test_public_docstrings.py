"""The public functions of ``arena`` and ``judges`` carry Google-style docstrings.

Every function exported from ``arena/__init__.py`` or ``judges/__init__.py`` documents its
parameters under ``Args:``, its result under ``Returns:`` (unless it returns None) and, when
its body raises, the errors under ``Raises:``; each parameter is named under ``Args:``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import textwrap
from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.unit


def _exported_functions() -> list[tuple[str, Callable[..., Any]]]:
    found = []
    for package in ("arena", "judges"):
        module = importlib.import_module(package)
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isfunction(value):
                found.append((f"{package}.{name}", value))
    return found


def _raises(function: Callable[..., Any]) -> bool:
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    body = tree.body[0]
    nested = {
        id(n)
        for node in ast.walk(body)
        if node is not body and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for n in ast.walk(node)
    }
    return any(isinstance(n, ast.Raise) and id(n) not in nested for n in ast.walk(body))


def _problems(function: Callable[..., Any]) -> list[str]:
    doc = inspect.getdoc(function) or ""
    signature = inspect.signature(function)
    params = [p for p in signature.parameters if p not in ("self", "cls")]
    problems = []
    if params:
        if "Args:" not in doc:
            problems.append("no Args:")
        else:
            args = doc.split("Args:", 1)[1].split("Returns:")[0].split("Raises:")[0]
            problems += [
                f"Args: misses {p}"
                for p in params
                if f"{p}:" not in args and f"{p} (" not in args and f"*{p}:" not in args
            ]
    if signature.return_annotation not in (None, "None") and "Returns:" not in doc:
        problems.append("no Returns:")
    if _raises(function) and "Raises:" not in doc:
        problems.append("raises, but no Raises:")
    return problems


def test_there_are_exported_functions() -> None:
    names = [name for name, _ in _exported_functions()]
    assert "arena.run_suite" in names and "judges.parse_judge" in names


@pytest.mark.parametrize(
    ("name", "function"), _exported_functions(), ids=[n for n, _ in _exported_functions()]
)
def test_exported_function_has_args_returns_raises(name: str, function: Any) -> None:
    assert _problems(function) == [], name

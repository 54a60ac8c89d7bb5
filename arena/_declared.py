"""The built-ins a registry's homes declare, read from their source without importing them.

``arena --help`` lists every registry's entries, and some commands' help lists one kind
(``arena mutate --operators``); importing the homes to list them loads LangChain, LangGraph,
NumPy and SQLAlchemy, seconds before any help is printed. Every built-in is declared by its
kind's decorator with constant arguments (``@mutation_operator("tool_raises", "the tool
raises on every call", order=10)``), so its name, summary and order, and the constant class
attributes of a decorated class (``default_judge_mode = "auto"``), are read from the
module's syntax tree. A home any of whose declarations is not all constants reads as
``None``: the caller imports it instead (:meth:`arena.registry.Registry.listing`).
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Declared:
    """One built-in as its decorator declares it."""

    name: str
    summary: str
    order: int | None
    attributes: dict[str, Any] = field(default_factory=dict)
    """The decorated class's own class attributes with a constant value."""


def declared(homes: tuple[str, ...], decorator: str) -> list[Declared] | None:
    """Every built-in declared with ``@decorator(...)`` in the modules under ``homes``, in the
    order importing them would register them; None when one cannot be read from source."""
    found: list[Declared] = []
    for home in homes:
        files = _sources(home)
        if files is None:
            return None
        for file in files:
            entries = _scan(file, decorator)
            if entries is None:
                return None
            found += entries
    return found


def _sources(module: str) -> list[Path] | None:
    """The source files of ``module`` and, for a package, of every module under it, in the
    order :func:`arena.registry._import_all` imports them (nothing is imported)."""
    top, _, rest = module.partition(".")
    spec = importlib.util.find_spec(top)  # a top-level name: found, not imported
    locations = None if spec is None else spec.submodule_search_locations
    if not locations:
        return None
    base = Path(next(iter(locations)))
    path = base.joinpath(*rest.split(".")) if rest else base
    if path.is_dir():
        return _package(path)
    file = path.with_suffix(".py")
    return [file] if file.is_file() else None


def _package(folder: Path) -> list[Path] | None:
    init = folder / "__init__.py"
    if not init.is_file():
        return None
    files = [init]
    children = {p.stem: p for p in folder.glob("*.py") if p.name != "__init__.py"}
    children |= {p.name: p for p in folder.iterdir() if (p / "__init__.py").is_file()}
    for name in sorted(children):
        child = children[name]
        inner = _package(child) if child.is_dir() else [child]
        if inner is None:
            return None
        files += inner
    return files


def _scan(file: Path, decorator: str) -> list[Declared] | None:
    try:
        tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return None
    found: list[Declared] = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for call in node.decorator_list:
            if isinstance(call, ast.Call) and _called(call.func) == decorator:
                entry = _entry(node, call)
                if entry is None:
                    return None
                found.append(entry)
    return found


def _called(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _entry(
    node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call
) -> Declared | None:
    """The declaration of ``node`` by ``call``; None unless its arguments are constants and
    it replaces nothing (a replacement's place and summary depend on what it replaces)."""
    try:
        args = [ast.literal_eval(a) for a in call.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
    except (ValueError, TypeError, SyntaxError):
        return None
    if not args or not isinstance(args[0], str) or kwargs.get("replace"):
        return None
    attributes = _attributes(node) if isinstance(node, ast.ClassDef) else {}
    summary = args[1] if len(args) > 1 else kwargs.get("summary")
    if summary is None:
        summary = attributes.get("summary") or ast.get_docstring(node) or ""
    order = kwargs.get("order")
    if not isinstance(summary, str) or not (order is None or isinstance(order, int)):
        return None
    lines = summary.strip().splitlines()
    return Declared(args[0], lines[0].strip() if lines else "", order, attributes)


def _attributes(node: ast.ClassDef) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for item in node.body:
        target: ast.expr
        if isinstance(item, ast.AnnAssign):
            target, value = item.target, item.value
        elif isinstance(item, ast.Assign) and len(item.targets) == 1:
            target, value = item.targets[0], item.value
        else:
            continue
        if isinstance(target, ast.Name) and value is not None:
            try:
                found[target.id] = ast.literal_eval(value)
            except (ValueError, TypeError, SyntaxError):
                continue
    return found

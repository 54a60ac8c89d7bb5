"""Find timed assertions in test files: an ``assert`` on a measured duration (a difference of
clock readings, a name holding one, or a ratio of them), or a hypothesis ``deadline``.

A bound on *finishing at all* stays allowed: a wait loop's deadline
(``while time.monotonic() < deadline``), ``subprocess`` timeouts and
:func:`tests.support.time_limit.time_limit` turn a hang into a failure, at tens to thousands of
times what the code needs. A claim on how fast something is belongs in ``benchmarks/`` (a
script printing its figures), never in a test: on a loaded machine it fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

CLOCKS = frozenset(
    {"perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "process_time", "time"}
)


def _is_clock_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute):  # time.perf_counter(), time.time()
        return func.attr in CLOCKS and isinstance(func.value, ast.Name) and func.value.id == "time"
    return isinstance(func, ast.Name) and func.id in CLOCKS - {"time"}  # perf_counter()


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(
        _is_clock_call(n) or (isinstance(n, ast.Name) and n.id in names) for n in ast.walk(node)
    )


def _durations(node: ast.AST, clocks: set[str], durations: set[str]) -> bool:
    """Whether ``node`` holds a measured duration: clock minus clock, or a duration name."""
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in durations:
            return True
        if (
            isinstance(n, ast.BinOp)
            and isinstance(n.op, ast.Sub)
            and (_mentions(n.left, clocks) or _mentions(n.right, clocks))
        ):
            return True
    return False


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _a_deadline(node: ast.AST) -> bool:
    """A hypothesis ``deadline=`` other than None: a slow example fails."""
    return isinstance(node, ast.keyword) and node.arg == "deadline" and not _is_none(node.value)


def _targets(node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> list[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def timed_assertions(source: str) -> list[int]:
    """The lines of ``source`` holding a timed assertion."""
    tree = ast.parse(source)
    clocks: set[str] = set()
    durations: set[str] = set()
    # Names are collected file-wide, in order, until nothing new is learned (a simple flow).
    assigns = [n for n in ast.walk(tree) if isinstance(n, ast.Assign | ast.AnnAssign)]
    while True:
        before = (len(clocks), len(durations))
        for node in assigns:
            if node.value is None:
                continue
            if _durations(node.value, clocks, durations):
                durations.update(_targets(node))
            elif _mentions(node.value, clocks):
                clocks.update(_targets(node))
        if (len(clocks), len(durations)) == before:
            break
    lines = []
    for found in ast.walk(tree):
        asserted = isinstance(found, ast.Assert) and _durations(found.test, clocks, durations)
        if asserted or _a_deadline(found):
            lines.append(getattr(found, "lineno", 0))
    return sorted(lines)


def timed_assertions_in(folder: Path) -> list[str]:
    """``file:line`` of every timed assertion in the Python files under ``folder``."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for line in timed_assertions(path.read_text(encoding="utf-8")):
            found.append(f"{path}:{line}")
    return found

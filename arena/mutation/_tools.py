"""Tools with a fault: wrappers around a variant's own tools (the tools stay untouched)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool

FAULT = "mutant fault"
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


class MutantToolError(RuntimeError):
    """What the ``tool_raises`` mutant's tool raises on every call."""


def _wrapped(
    tool: BaseTool,
    run: Callable[..., Any],
    *,
    name: str | None = None,
    like: BaseTool | None = None,
) -> BaseTool:
    """A tool named ``name`` (default: ``tool``'s), described and typed like ``like`` (default:
    ``tool``), running ``run(**args)``."""
    shown = like or tool
    return StructuredTool.from_function(
        func=run,
        name=name or tool.name,
        description=shown.description,
        args_schema=shown.args_schema,
        infer_schema=False,
    )


def raising(tool: BaseTool) -> BaseTool:
    """``tool`` raising :class:`MutantToolError` on every call."""

    def run(**_args: Any) -> str:
        raise MutantToolError(f"{tool.name} failed ({FAULT}: tool_raises)")

    return _wrapped(tool, run)


def empty(tool: BaseTool) -> BaseTool:
    """``tool`` returning an empty result on every call."""

    def run(**_args: Any) -> str:
        return ""

    return _wrapped(tool, run)


def perturb(text: str) -> str:
    """``text`` with every number changed to a plausible wrong one (x -> 1.5x + 1, its
    decimals kept); unchanged when it holds no number."""

    def wrong(match: re.Match[str]) -> str:
        digits = match.group(0)
        decimals = len(digits.partition(".")[2])
        value = float(digits) * 1.5 + 1
        return f"{value:.{decimals}f}"

    return _NUMBER.sub(wrong, text)


def stale(tool: BaseTool) -> BaseTool:
    """``tool`` returning a plausible wrong result: its real result with the numbers perturbed,
    or, when it holds none, the result of its previous call (empty on the first)."""
    lock = threading.Lock()
    previous: list[str] = []

    def run(**args: Any) -> str:
        real = str(tool.invoke(args))
        wrong = perturb(real)
        with lock:
            if wrong == real:
                wrong = previous[-1] if previous and previous[-1] != real else ""
            previous.append(real)
        return wrong

    return _wrapped(tool, run)


def swapped(first: BaseTool, second: BaseTool) -> tuple[BaseTool, BaseTool]:
    """The two tools with their names exchanged: the one called ``first.name`` runs
    ``second`` (with its description and arguments), and the other way round."""

    def run_second(**args: Any) -> Any:
        return second.invoke(args)

    def run_first(**args: Any) -> Any:
        return first.invoke(args)

    return (
        _wrapped(second, run_second, name=first.name),
        _wrapped(first, run_first, name=second.name),
    )

"""Tools with a fault: wrappers around a variant's own tools (the tools stay untouched).

Each wrapper keeps the tool's name, description, arguments and validation-error handling
(a swap takes the other tool's), and runs both ways, sync and async, as the agent calls it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool

FAULT = "mutant fault"
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_UNSEEN: RunnableConfig = {"callbacks": []}
"""The inner tool's run reports to no callback: the runner's trajectory records the wrapper's
call alone (the call the agent made, with the mutated result)."""


class MutantToolError(RuntimeError):
    """What the ``tool_raises`` mutant's tool raises on every call."""


class MutantWrapperError(RuntimeError):
    """The mutant's wrapper could not call the tool it wraps, so its fault was never injected
    (the mutant is ``errored``, never killed: :func:`arena.mutation._verdict.wrapper_failures`)."""


def injected_call_id(tool: BaseTool) -> list[str]:
    """The arguments of ``tool`` langchain fills with the calling message's id
    (``InjectedToolCallId``): such a tool runs only when invoked with the model's whole tool
    call, which a wrapper does not have."""
    from langchain_core.tools import InjectedToolCallId

    schema = tool.args_schema
    fields = getattr(schema, "model_fields", {}) if isinstance(schema, type) else {}
    return [
        name
        for name, info in fields.items()
        if any(m is InjectedToolCallId or isinstance(m, InjectedToolCallId) for m in info.metadata)
    ]


def _callable(tool: BaseTool) -> None:
    """Raise :class:`MutantWrapperError` when a wrapper cannot call ``tool`` with its arguments."""
    injected = injected_call_id(tool)
    if injected:
        raise MutantWrapperError(
            f"the mutant's wrapper cannot call {tool.name}: its argument {injected[0]} is an "
            f"InjectedToolCallId, filled only when the model's own tool call invokes it "
            f"({FAULT} not injected)"
        )


def _call(tool: BaseTool, args: dict[str, Any]) -> Any:
    _callable(tool)
    return tool.invoke(args, config=_UNSEEN)


async def _acall(tool: BaseTool, args: dict[str, Any]) -> Any:
    _callable(tool)
    return await tool.ainvoke(args, config=_UNSEEN)


def _wrapped(
    tool: BaseTool,
    run: Callable[..., Any],
    arun: Callable[..., Awaitable[Any]],
    *,
    name: str | None = None,
) -> BaseTool:
    """A tool named ``name`` (default: ``tool``'s), described and typed like ``tool``, running
    ``run(**args)`` (``await arun(**args)`` when called async)."""
    return StructuredTool.from_function(
        func=run,
        coroutine=arun,
        name=name or tool.name,
        description=tool.description,
        args_schema=tool.args_schema,
        infer_schema=False,
        handle_validation_error=getattr(tool, "handle_validation_error", False),
    )


def raising(tool: BaseTool) -> BaseTool:
    """``tool`` raising :class:`MutantToolError` on every call."""

    def run(**_args: Any) -> str:
        raise MutantToolError(f"{tool.name} failed ({FAULT}: tool_raises)")

    async def arun(**args: Any) -> str:
        return run(**args)

    return _wrapped(tool, run, arun)


def empty(tool: BaseTool) -> BaseTool:
    """``tool`` returning an empty result on every call."""

    def run(**_args: Any) -> str:
        return ""

    async def arun(**_args: Any) -> str:
        return ""

    return _wrapped(tool, run, arun)


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

    def wrong(result: Any) -> str:
        real = str(result)
        changed = perturb(real)
        with lock:
            if changed == real:
                changed = previous[-1] if previous and previous[-1] != real else ""
            previous.append(real)
        return changed

    def run(**args: Any) -> str:
        return wrong(_call(tool, args))

    async def arun(**args: Any) -> str:
        return wrong(await _acall(tool, args))

    return _wrapped(tool, run, arun)


def _running(tool: BaseTool) -> tuple[Callable[..., Any], Callable[..., Awaitable[Any]]]:
    def run(**args: Any) -> Any:
        return _call(tool, args)

    async def arun(**args: Any) -> Any:
        return await _acall(tool, args)

    return run, arun


def swapped(first: BaseTool, second: BaseTool) -> tuple[BaseTool, BaseTool]:
    """The two tools with their names exchanged: the one called ``first.name`` runs
    ``second`` (with its description and arguments), and the other way round."""
    return (
        _wrapped(second, *_running(second), name=first.name),
        _wrapped(first, *_running(first), name=second.name),
    )

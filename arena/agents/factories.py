"""Bring-your-own agent factories (``agent: package.module:factory``): import, vet and call them.

A variant file names code to run, so it is code-equivalent input. These checks do not make an
untrusted variant file safe (importing a module runs it); they turn mistakes and the obvious
abuses into clear errors naming the variant file and the field ``agent``:

- the module must import (any exception while importing it is reported, not raised);
- it may not be a standard-library module (``os:system``, ``builtins:exit``,
  ``subprocess:run`` and the like are refused before anything runs);
- the factory must be a Python function or class taking one argument (the AgentContext);
- what it returns must be an agent: a runnable or graph with ``ainvoke``.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from typing import TYPE_CHECKING, Any

from arena.errors import InputError

if TYPE_CHECKING:
    from arena.agents.context import AgentContext

FIELD = "agent"


def import_factory(path: str, *, file: str | None = None) -> Any:
    """The vetted factory named by ``package.module:factory`` (InputError otherwise)."""
    module_name, _, attr = path.partition(":")
    top = module_name.split(".")[0]
    if top in sys.stdlib_module_names or top in sys.builtin_module_names:
        raise InputError(
            f"{path} is not an agent factory: factories must be your own code, "
            f"not the standard library's {top!r} module",
            file=file,
            field=FIELD,
        )
    try:
        module = importlib.import_module(module_name)
    except (Exception, SystemExit) as exc:  # a broken user module must not crash the run
        raise InputError(
            f"cannot import {module_name}: {type(exc).__name__}: {exc}", file=file, field=FIELD
        ) from None
    factory = getattr(module, attr, None)
    if factory is None:
        raise InputError(f"{module_name} has no attribute {attr!r}", file=file, field=FIELD)
    _check_callable(path, factory, file)
    return factory


def call_factory(path: str, ctx: AgentContext, *, file: str | None = None) -> Any:
    """Build the agent with the factory; InputError unless it returns something with ainvoke."""
    factory = import_factory(path, file=file)
    try:
        agent = factory(ctx)
    except SystemExit as exc:
        raise InputError(
            f"the factory {path} tried to exit ({exc.code!r})", file=file, field=FIELD
        ) from None
    if not callable(getattr(agent, "ainvoke", None)):
        raise InputError(
            f"the factory {path} returned {type(agent).__name__}, not an agent: "
            "return a LangGraph graph or any runnable with ainvoke",
            file=file,
            field=FIELD,
        )
    return agent


def _check_callable(path: str, factory: Any, file: str | None) -> None:
    if not (inspect.isfunction(factory) or inspect.isclass(factory)):
        raise InputError(
            f"{path} is a {type(factory).__name__}, not a factory: it must be a "
            "Python function (or class) taking the AgentContext",
            file=file,
            field=FIELD,
        )
    try:
        inspect.signature(factory).bind(None)
    except TypeError:
        raise InputError(
            f"the factory {path} must take exactly one argument (the AgentContext)",
            file=file,
            field=FIELD,
        ) from None
    except ValueError:  # no signature available: let the call decide
        return

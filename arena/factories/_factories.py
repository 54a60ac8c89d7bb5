"""Bring-your-own agent factories (``agent: package.module:factory``): import, vet and call them.

A variant file names code to run, so it is code-equivalent input. These checks do not make an
untrusted variant file safe (importing a module runs it); they turn mistakes and the obvious
abuses into clear errors naming the variant file and the field ``agent``:

- the module must import (any exception while importing it is reported, not raised); it is
  looked up in the installed packages, then in the project (see arena.factories._imports);
- it may not be a standard-library module (``os:system``, ``builtins:exit``,
  ``subprocess:run`` and the like are refused before anything runs);
- the factory must be a Python function or class taking one argument (the AgentContext);
- what it returns must be an agent: a runnable or graph with ``ainvoke``;
- a variant's ``tools:`` must name tools the factory declares (see arena.factories._declare; a
  factory that declares none takes no ``tools:``), its ``roles:`` roles it declares (one that
  declares none takes no ``roles:``), and its ``params:`` must validate against the
  factory's params model.

A registered architecture (a plugin's, ``agent: NAME``) that declares nothing keeps the
built-in agent's tools to select from and takes any ``roles:``.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Mapping
from typing import Any, Protocol

from pydantic import ValidationError

from arena.agents._architectures import AGENTS
from arena.errors import InputError
from arena.factories._declare import FactorySpec, factory_spec
from arena.factories._imports import make_importable
from arena.inputs.validation import error_message, field_path, first_error


class FactoryVariant(Protocol):
    """What vetting reads of a variant (``arena.variants.variant.Variant``; this module sits
    below it)."""

    @property
    def name(self) -> str:
        """The variant's name."""
        ...

    @property
    def agent(self) -> str:
        """The factory's import path, ``package.module:function``."""
        ...

    @property
    def tools(self) -> list[str] | None:
        """The declared tools the variant selects (None: all of them)."""
        ...

    @property
    def params(self) -> dict[str, Any]:
        """The settings passed to the factory."""
        ...

    @property
    def roles(self) -> Mapping[str, Any]:
        """The models of the variant's roles, by role name."""
        ...

    @property
    def source_file(self) -> str | None:
        """The variant file, when it was loaded from one."""
        ...


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
    roots = make_importable(module_name, file)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        ours = exc.name is not None and f"{module_name}.".startswith(f"{exc.name}.")
        if not ours:
            raise _import_error(module_name, exc, file) from None
        raise InputError(
            f"cannot import {module_name}: no module named {exc.name!r} among the installed "
            f"packages or in {', '.join(map(str, roots))}; put the {top!r} package in the "
            "variant's folder (or a folder above it, up to the project root) or beside "
            "arena.yaml, or install your project (pip install -e .)",
            file=file,
            field=FIELD,
        ) from None
    except (Exception, SystemExit) as exc:  # a broken user module must not crash the run
        raise _import_error(module_name, exc, file) from None
    factory = getattr(module, attr, None)
    if factory is None:
        raise InputError(f"{module_name} has no attribute {attr!r}", file=file, field=FIELD)
    _check_callable(path, factory, file)
    return factory


def _import_error(module_name: str, exc: BaseException, file: str | None) -> InputError:
    return InputError(
        f"cannot import {module_name}: {type(exc).__name__}: {exc}", file=file, field=FIELD
    )


def vet_variant(variant: FactoryVariant) -> FactorySpec:
    """Import a factory variant's factory and check its ``tools:`` and ``params:`` against
    what the factory declares (InputError naming the variant file and the field)."""
    file = variant.source_file
    if ":" in variant.agent:
        factory = import_factory(variant.agent, file=file)
    else:  # a registered architecture (a plugin's)
        factory = AGENTS.lookup(variant.agent)
    spec = factory_spec(factory)
    if variant.tools is not None:
        _check_tools(variant, spec)
    if variant.roles and (spec.roles or ":" in variant.agent):
        _check_roles(variant, spec)
    factory_params(variant, spec)
    return spec


def _check_tools(variant: FactoryVariant, spec: FactorySpec) -> None:
    declared = spec.tool_names
    if declared is None and ":" in variant.agent:
        raise InputError(
            f"{variant.agent} declares no tools, so there is nothing to select: declare the "
            "agent's tools with @agent_factory(tools=[...]), or leave tools: out",
            file=variant.source_file,
            variant=variant.name,
            field="tools",
        )
    if declared is None:  # a plugin's architecture: the built-in tools
        from arena.defaults import TOOL_NAMES

        available, whose = list(TOOL_NAMES), "the built-in tools (the agent declares none)"
    else:
        available, whose = declared, f"the tools {variant.agent} declares"
    unknown = [name for name in variant.tools or [] if name not in available]
    if unknown:
        raise InputError(
            f"unknown tool(s) {', '.join(unknown)}: not among {whose} "
            f"({', '.join(available) or 'none'})",
            file=variant.source_file,
            variant=variant.name,
            field="tools",
        )


def _check_roles(variant: FactoryVariant, spec: FactorySpec) -> None:
    unknown = [role for role in variant.roles if role not in spec.roles]
    if not unknown:
        return
    if spec.roles:
        known = f"{variant.agent} declares {', '.join(spec.roles)}"
    else:
        known = f"{variant.agent} declares none: declare them with @agent_factory(roles=[...])"
    raise InputError(
        f"unknown role(s) {', '.join(unknown)}; {known}",
        file=variant.source_file,
        variant=variant.name,
        field="roles",
    )


def factory_params(variant: FactoryVariant, spec: FactorySpec) -> Any:
    """The variant's ``params:`` as the factory's params model (a plain dict when the factory
    declares none); InputError naming ``params.<key>`` when they do not validate."""
    if spec.params is None:
        return dict(variant.params)
    try:
        return spec.params.model_validate(variant.params)
    except ValidationError as exc:
        err = first_error(exc)
        loc = field_path(("params", *err["loc"]))
        raise InputError(
            f"{error_message(err)} ({spec.params.__name__} of {variant.agent})",
            file=variant.source_file,
            variant=variant.name,
            field=loc,
        ) from None


def call_factory(path: str, ctx: object, *, file: str | None = None) -> Any:
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

"""One CLI module per command: ``arena/cli/NAME.py`` registers ``arena NAME`` and nothing else."""

from __future__ import annotations

import argparse
import importlib
import pkgutil

import pytest

import arena.cli
from arena.cli import build_parser

pytestmark = pytest.mark.unit


def _command_modules() -> dict[str, object]:
    found = {}
    for info in pkgutil.iter_modules(arena.cli.__path__):
        if info.name == "__main__":  # runs the command line when imported
            continue
        module = importlib.import_module(f"arena.cli.{info.name}")
        if hasattr(module, "register"):
            found[info.name] = module
    return found


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


@pytest.mark.parametrize("name", sorted(_command_modules()))
def test_each_command_module_registers_its_own_command_only(name: str) -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    _command_modules()[name].register(sub)  # type: ignore[attr-defined]
    assert _commands(parser) == {name.replace("_", "-")}


def test_every_command_has_its_module() -> None:
    modules = {name.replace("_", "-") for name in _command_modules()}
    assert _commands(build_parser()) == modules

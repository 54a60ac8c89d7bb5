"""Every argument of every ``arena`` command says what it is for: a walk of the whole parser."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from arena.cli import build_parser

pytestmark = pytest.mark.unit


def _arguments(
    parser: argparse.ArgumentParser, words: tuple[str, ...] = ("arena",)
) -> Iterator[tuple[str, argparse.Action]]:
    """(command words, argument) for every argument of ``parser`` and its sub-commands."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _arguments(sub, (*words, name))
        elif not isinstance(action, argparse._HelpAction):
            yield " ".join(words), action


def _name(action: argparse.Action) -> str:
    return "/".join(action.option_strings) or action.dest


def test_the_walk_reaches_nested_commands_and_positionals() -> None:
    found = {(words, _name(a)) for words, a in _arguments(build_parser())}
    assert ("arena baseline propose", "--min-gain") in found
    assert ("arena battles export", "target") in found
    assert ("arena", "--fake-scripts") in found


def test_every_option_and_positional_has_help() -> None:
    missing = [
        f"{words} {_name(action)}"
        for words, action in _arguments(build_parser())
        if not action.help or not str(action.help).strip()
    ]
    assert missing == []

"""Every command's defaults from ``arena.yaml``: the nearest one up from the working directory,
or ``--config FILE``. A flag given on the command line still wins, and ``$ARENA_DB_URL`` wins
over the file's ``db``.

The file's settings become the chosen sub-command's argparse defaults, then the command line is
parsed again, so a handler reads ``args`` as usual and never the file.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from arena.cli._commands import COMMANDS
from arena.errors import InputError

#: argument dest -> the ProjectDefaults field that gives its default
DESTS = ("db", "dataset", "variants_dir", "user_model", "grader", "judge")
#: argument dest -> other dests that spell the same setting (``golden lint``'s positional
#: dataset beside its ``--dataset``): given on the command line, they keep the file's default
#: off the dest, so the flag wins over arena.yaml instead of clashing with it
SPELLINGS = {"dataset": ("dataset_option",)}
# A command declares whether its --judge is the judge it uses (``uses_judge``; in ``plan`` it
# is optional, ``demo`` has its own) and whether it reads arena.yaml itself (``own_config``, the
# gate: only the database comes from here, and a bad file is left for the command to report
# its own way): :func:`arena.cli._commands.command`.


def parse_args(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``argv`` parsed, with the chosen command's defaults taken from ``arena.yaml``."""
    args = parser.parse_args(argv)
    leaf = chosen_parser(parser, args)
    if "config" not in {a.dest for a in leaf._actions}:
        return args  # the command reads no project settings (agree, schema, init-ci, ...)
    values = config_values(args, {a.dest for a in leaf._actions})
    values = {
        dest: value
        for dest, value in values.items()
        if all(getattr(args, other, None) is None for other in SPELLINGS.get(dest, ()))
    }
    if not values:
        return args
    leaf.set_defaults(**values)
    return parser.parse_args(argv)


def config_values(args: argparse.Namespace, dests: set[str]) -> dict[str, Any]:
    """The defaults ``arena.yaml`` gives the command of ``args`` (whose arguments are
    ``dests``): InputError naming the file and the field when it cannot be read."""
    from arena.project._defaults import read_project_defaults

    declared = COMMANDS.get(args.command)
    own = declared is not None and declared.own_config
    try:
        found = read_project_defaults(args.config)
    except InputError:
        if own:
            return {}
        raise
    judge = declared is not None and declared.uses_judge
    wanted = set(DESTS) if judge else set(DESTS) - {"judge"}
    if own:
        wanted = {"db"}
    if os.environ.get("ARENA_DB_URL"):
        wanted.discard("db")
    return {
        dest: getattr(found, dest)
        for dest in sorted(wanted & dests)
        if getattr(found, dest) is not None
    }


def chosen_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """The parser of the (sub-)sub-command ``args`` chose."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            name = getattr(args, action.dest, None)
            if name in action.choices:
                return chosen_parser(action.choices[name], args)
    return parser

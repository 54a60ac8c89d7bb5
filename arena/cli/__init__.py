"""The ``arena`` command line: parse, call the library, print."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import traceback
from collections.abc import Sequence

from arena._version import __version__
from arena.errors import (
    EXIT_ENVIRONMENT,
    ArenaError,
    EnvironmentFault,
    InputError,
    NotFound,
    environment_fault,
)
from arena.reports._format import terminal_safe

EXIT_BAD_INPUT = 2
EXIT_BUG = 70  # EX_SOFTWARE of sysexits.h: an internal error (1 is a failed gate or lint)
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a Unix tool
DISTRIBUTION = "agent-arena"


class _ArenaParser(argparse.ArgumentParser):
    """The top-level parser: its help ends with what is registered (loaded only for help)."""

    def format_help(self) -> str:
        from arena.extend import registries
        from arena.reports._registered import registered_text

        return super().format_help() + "\n" + registered_text(registries()) + "\n"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered (each declared by its own
    module, :mod:`arena.cli._commands`)."""
    from arena.cli._commands import commands

    parser = _ArenaParser(
        prog="arena", description="Tell whether a change to an LLM agent made it better or worse."
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"agent-arena {__version__}",
        help="print the version",
    )
    # scripted models from a file, for any sub-command
    parser.add_argument(
        "--fake-scripts",
        default=None,
        metavar="FILE",
        help="play the scripted models of this YAML/JSON file (fake:NAME specs, and real "
        "specs its `models:` maps to a script): the pipeline without any model "
        "(also $ARENA_FAKE_SCRIPTS)",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for found in commands():
        found.register(sub)
    return parser


def _sigterm(_signum: int, _frame: object) -> None:
    # Turn SIGTERM into SystemExit so atexit handlers stop the local model servers.
    sys.exit(143)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``arena`` console script."""
    signal.signal(signal.SIGTERM, _sigterm)
    try:
        try:
            from arena.cli.config_defaults import parse_args

            args = parse_args(build_parser(), argv)  # with arena.yaml's defaults
        except InputError as exc:  # e.g. an installed plugin's entry point taking a used name
            print(f"arena: error: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        code = _run_safely(args)
        sys.stdout.flush()  # here, not at exit, so a closed pipe is caught below
        return code
    except BrokenPipeError:
        return _reader_went_away()


def _reader_went_away() -> int:
    """The reader of stdout closed it (``arena ... | head``): end quietly, as Unix tools do.

    stdout is pointed at /dev/null so that Python's flush at exit does not fail again.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout without a file descriptor (captured in tests)
        pass
    return EXIT_BROKEN_PIPE


def _run_safely(args: argparse.Namespace) -> int:
    """:func:`_run` with stdout made terminal-safe (:class:`~arena.cli.common.TerminalSafe`):
    stored model text a command prints cannot move the cursor, erase lines or retitle the
    terminal. stderr keeps its carriage returns for the progress bars; arena's own error and
    warning lines on it are made safe where they are printed."""
    from arena.cli.common import TerminalSafe

    real = sys.stdout
    sys.stdout = TerminalSafe(real)
    try:
        return _run(args)
    finally:
        sys.stdout = real


def _run(args: argparse.Namespace) -> int:
    for note in getattr(args, "notes", None) or []:  # deprecated spellings used
        print(note, file=sys.stderr)
    try:
        if args.fake_scripts:
            from arena.models._fake_files import use_fake_scripts

            use_fake_scripts(args.fake_scripts)
        return int(args.handler(args) or 0)
    except (InputError, NotFound) as exc:
        print(terminal_safe(f"arena: error: {exc}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except EnvironmentFault as exc:
        print(terminal_safe(f"arena: error: {exc}"), file=sys.stderr)
        return EXIT_ENVIRONMENT
    except ArenaError as exc:
        print(terminal_safe(f"arena: error: {exc}"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            "arena: interrupted; finished results are saved, rerun the command to resume",
            file=sys.stderr,
        )
        return 130
    except BrokenPipeError:  # main ends quietly
        raise
    except Exception as exc:  # a bug, not bad input: show where, and ask for a report
        fault = environment_fault(exc)  # unless the machine refused a write: exit 3, one line
        if fault is not None:
            print(terminal_safe(f"arena: error: {fault}"), file=sys.stderr)
            return EXIT_ENVIRONMENT
        traceback.print_exc()
        print(f"arena: internal error (a bug): {bug_report_request()}", file=sys.stderr)
        return EXIT_BUG


def bug_report_request() -> str:
    """One line asking for a bug report: where to file it (the issue tracker among the
    installed distribution's project URLs), else which project to tell."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        urls = metadata(DISTRIBUTION).get_all("Project-URL") or []
    except PackageNotFoundError:
        urls = []
    for entry in urls:
        label, _, url = entry.partition(",")
        if any(word in label.lower() for word in ("issue", "bug", "tracker")):
            return f"please report it with the traceback above at {url.strip()}"
    return f"please report it to the {DISTRIBUTION} project with the traceback above"

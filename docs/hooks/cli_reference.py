"""MkDocs hook: the CLI reference page (`cli.md`), generated from the real argparse parser.

Nothing here is hand-copied: every sub-command, its help, usage, arguments, choices and
defaults come from `arena.cli.build_parser()` of this checkout, so the page cannot drift.
`render_cli_reference()` is also what the docs tests check against.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PAGE = "cli.md"

INTRO = """# CLI reference

Generated from the `arena` command's argparse parser when the site is built (see
`docs/hooks/cli_reference.py`), so it always matches the code. `arena COMMAND --help` prints
the same from the terminal.

Defaults: every command that needs a database, a golden dataset, variants or a judge reads
them from the nearest `arena.yaml` up from the working directory (or `--config FILE`): `db`,
`run.dataset`, `run.variants_dir`, `run.user_model`, `grader` and `compare.judge`. A flag given
on the command line wins, and `$ARENA_DB_URL` wins over `db`
([every command's defaults](gate.md#every-commands-defaults)).

A stored judge is `--judge-key KEY` (the key `arena judge` prints); `--judge` is a judge spec
(`arena judge`, `gate`, `plan`, `demo`, `compare --sequential`). The old `--judge KEY` of
`ratings`, `battles export` and `compare` still works and prints a deprecation note.

Exit codes: 0 on success; 2 on bad input (the message names the file, the case and the field,
or the flag); `arena gate` and `arena check` exit 1 when a blocking rule fires or a limit
fails, `arena compare` exits 1 when the candidate is worse, regressed or inconclusive, and
`arena golden lint` exits 1 when a finding is an error.
"""


def build_parser() -> argparse.ArgumentParser:
    """The `arena` parser of this checkout (not of whatever copy happens to be installed)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from arena.cli import build_parser as arena_parser

    return arena_parser()


def subcommands(
    parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str, argparse.ArgumentParser]]:
    """Every sub-command, depth first: (its words, its one-line help, its parser)."""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        formatter = parser._get_formatter()
        helps = {
            choice.dest: formatter._expand_help(choice) if choice.help else ""
            for choice in action._choices_actions
        }
        for name, sub in action.choices.items():
            words = (*prefix, name)
            yield words, helps.get(name, ""), sub
            yield from subcommands(sub, words)


def _escape(text: str) -> str:
    for char in ("\\", "|", "*", "_", "<", "`"):
        text = text.replace(char, "\\" + char)
    return " ".join(text.split())


def _default(action: argparse.Action) -> str:
    value: Any = action.default
    if value is None or value is argparse.SUPPRESS or isinstance(action, _FLAG_ACTIONS):
        return ""
    if isinstance(value, list | tuple):
        value = " ".join(str(item) for item in value)
    return f"`{value}`" if str(value) else ""


_FLAG_ACTIONS = (
    argparse._StoreTrueAction,
    argparse._StoreFalseAction,
    argparse._StoreConstAction,
    argparse._CountAction,
    argparse._HelpAction,
)


def _argument_rows(parser: argparse.ArgumentParser) -> list[str]:
    formatter = parser._get_formatter()
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.help is argparse.SUPPRESS:
            continue
        if action.option_strings:
            names = ", ".join(action.option_strings)
            metavar = ""
            if action.nargs != 0:
                metavar = formatter._format_args(action, action.dest.upper())
            argument = f"`{names} {metavar}`".replace(" `", "`") if metavar else f"`{names}`"
        else:
            argument = f"`{formatter._format_args(action, action.dest)}`"
        help_text = _escape(formatter._expand_help(action)) if action.help else ""
        required = " (required)" if action.required and action.option_strings else ""
        rows.append(f"| {argument}{required} | {help_text} | {_default(action)} |")
    return rows


def render_command(words: tuple[str, ...], help_text: str, sub: argparse.ArgumentParser) -> str:
    """One command's section: heading, help, usage and a table of its arguments."""
    lines = [f"## arena {' '.join(words)}", ""]
    if help_text:
        lines += [_escape(help_text), ""]
    if sub.description and sub.description != help_text:
        lines += [_escape(sub.description), ""]
    lines += ["```text", sub.format_usage().strip(), "```", ""]
    rows = _argument_rows(sub)
    if rows:
        lines += ["| argument | help | default |", "| --- | --- | --- |", *rows, ""]
    if sub.epilog:
        lines += [_escape(sub.epilog), ""]
    return "\n".join(lines)


def render_cli_reference(parser: argparse.ArgumentParser | None = None) -> str:
    """The whole CLI reference page as Markdown."""
    os.environ["COLUMNS"] = "100"  # usage lines wrap the same on every machine
    parser = parser or build_parser()
    commands = list(subcommands(parser))
    index = ["| command | what it does |", "| --- | --- |"]
    for words, help_text, _ in commands:
        anchor = "arena-" + "-".join(words)
        index.append(f"| [`arena {' '.join(words)}`](#{anchor}) | {_escape(help_text)} |")
    sections = [render_command(words, help_text, sub) for words, help_text, sub in commands]
    return _portable("\n".join([INTRO, *index, "", *sections]))


def _portable(text: str) -> str:
    """Defaults computed from this machine's paths, written as the user would see them."""
    return text.replace(f"{ROOT}/", "").replace(str(Path.home()), "~")


def on_files(files: Any, config: Any) -> Any:
    """MkDocs event: add the generated page to the site's files."""
    from mkdocs.structure.files import File

    files.append(File.generated(config, PAGE, content=render_cli_reference()))
    return files

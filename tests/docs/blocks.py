"""The code blocks of the docs: every Markdown file under docs/ and README.md.

Python blocks are linted with the project's ruff settings and run; a block fenced as
```` ```python test="skip" ```` is linted only (for code that needs a service the tests do not
have). In ```` ```bash ```` blocks every `arena ...` command line must parse with the real
argparse parser.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(
    r"^(?P<indent> *)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```", re.M | re.S
)
ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
SEPARATORS = {"&&", "||", "|", ";", "&", "(", ")"}
REDIRECTIONS = {">", ">>", "<", "2>", "&>"}


def markdown_files() -> list[Path]:
    """README.md and every Markdown page under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@dataclass(frozen=True)
class Block:
    """One fenced code block: its file, first line, language, fence settings and text."""

    path: Path
    line: int
    language: str
    info: str
    source: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks(path: Path, language: str) -> Iterator[Block]:
    """The fenced blocks of one language (```python, ```py, ```bash, ```sh) in a file."""
    text = path.read_text(encoding="utf-8")
    aliases = {
        "python": ("python", "py"),
        "bash": ("bash", "sh", "shell"),
        "text": ("text", "console", ""),
    }[language]
    for match in FENCE.finditer(text):
        info = match["info"].strip()
        if info.split(" ", 1)[0].strip("{.").lower() not in aliases:
            continue
        indent = len(match["indent"])
        body = "\n".join(line[indent:] for line in match["body"].splitlines())
        line = text[: match.start()].count("\n") + 1
        yield Block(path, line, language, info, body + "\n")


def skipped(block: Block) -> bool:
    """Whether the fence says `test="skip"` (lint only)."""
    return re.search(r"""test=["']skip["']""", block.info) is not None


def command_lines(source: str, *, prompted_only: bool = False) -> Iterator[list[str]]:
    """The `arena ...` commands of a shell block, as argument lists (without `arena`).

    Continuation lines are joined; a leading `$ ` prompt, comments, environment assignments,
    redirections (`> FILE`) and the commands around `&&`, `|` and `;` are dropped. With
    `prompted_only` (a transcript: commands and their output) only lines after a `$ ` prompt
    are commands.
    """
    joined = re.sub(r"\\\n", " ", source)
    for raw in joined.splitlines():
        line = raw.strip()
        if prompted_only and not line.startswith("$ "):
            continue
        line = line[2:] if line.startswith("$ ") else line
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        try:
            tokens = list(lexer)
        except ValueError:  # an unbalanced quote: not a command line
            continue
        segment: list[str] = []
        redirect = False
        for token in [*tokens, ";"]:
            if redirect:  # the file a redirection names is no argument
                redirect = False
                continue
            if token in REDIRECTIONS:
                redirect = True
                continue
            if token not in SEPARATORS:
                segment.append(token)
                continue
            while segment and ENV_ASSIGNMENT.match(segment[0]):
                segment.pop(0)
            if segment and (segment[0] == "arena" or segment[0].endswith("/bin/arena")):
                yield segment[1:]
            segment = []


def parse_problem(parser: argparse.ArgumentParser, argv: list[str]) -> str | None:
    """Why this command line does not parse, or None when it does.

    A placeholder value (`--repeats N`) is accepted: the flag exists, only its value is
    symbolic. A `...` elides the rest of a command, so missing required arguments are then
    accepted too.
    """
    elided = "..." in argv
    argv = [token for token in argv if token != "..."]
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            parser.parse_args(argv)
    except SystemExit as exit_:
        if exit_.code == 0:  # --help
            return None
        message = stderr.getvalue().strip().splitlines()[-1]
        if re.search(r"argument \S+: invalid \w+ value", message):
            return None
        if elided and "the following arguments are required" in message:
            return None
        return message
    return None


INLINE_COMMAND = re.compile(r"`((?:\S*/)?arena [^`\n]+)`")


def doc_commands(path: Path) -> Iterator[tuple[int, list[str]]]:
    """Every `arena ...` command a page names, with its line: the lines of every fenced block
    (commands, transcripts and sample outputs alike) and every inline code span."""
    text = path.read_text(encoding="utf-8")
    for match in FENCE.finditer(text):
        first = text[: match.start()].count("\n") + 2
        for offset, line in enumerate(match["body"].splitlines()):
            for argv in command_lines(line.strip().removeprefix("$ ")):
                yield first + offset, argv
    for match in INLINE_COMMAND.finditer(text):
        line = text[: match.start()].count("\n") + 1
        for argv in command_lines(match[1]):
            yield line, argv


def _chosen(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.ArgumentParser:
    """The (sub-)sub-command parser the leading words of ``argv`` name."""
    for token in argv:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or token not in subs[0].choices:
            break
        parser = subs[0].choices[token]
    return parser


def deprecated_options(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """The options of ``argv`` a page must not teach: a deprecated spelling (its help says
    so; "the deprecated spelling ... without --X" only when --X is absent) or a hidden flag
    kept for old scripts."""
    chosen = _chosen(parser, argv)
    tokens = {token.split("=", 1)[0] for token in argv}
    found = []
    for action in chosen._actions:
        used = [flag for flag in action.option_strings if flag in tokens]
        if not used or isinstance(action, argparse._HelpAction):
            continue
        help_ = action.help or ""
        hidden = help_ == argparse.SUPPRESS
        deprecated = "deprecated" in help_.lower()
        unless = re.search(r"without (--[\w-]+)[^;]*deprecated", help_)
        if unless and unless[1] in tokens:
            deprecated = False
        if hidden or deprecated:
            found += used
    return found

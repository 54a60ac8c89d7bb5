"""A sub-command added as one new module of ``arena.cli`` declares itself: it is listed by
``arena --help`` in its order and runs, with no hand list of commands touched."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]

_NEW_COMMAND = '''
"""``arena hello``: a command added as one file."""

import argparse
from typing import Any

from arena.cli._commands import command


@command("hello", order=15, uses_judge=True)
def register(sub: Any) -> None:
    """Add the hello sub-command."""
    p = sub.add_parser("hello", help="greet someone (a command added as one file)")
    p.add_argument("--name", default="world")
    p.add_argument("--judge", default=None)
    p.add_argument("--config", default=None)
    p.set_defaults(handler=cmd_hello)


def cmd_hello(args: argparse.Namespace) -> int:
    print(f"hello {args.name}, judged by {args.judge}")
    return 3
'''

_ADD_FILE = """
import contextlib, io, json, sys
import arena.cli

arena.cli.__path__.append(sys.argv[1])  # as if the file were saved in arena/cli/
from arena.cli import main

help_text = io.StringIO()
with contextlib.redirect_stdout(help_text), contextlib.suppress(SystemExit):
    main(["--help"])
ran = io.StringIO()
with contextlib.redirect_stdout(ran):
    code = main(["hello", "--name", "arena"])
print(json.dumps([help_text.getvalue(), ran.getvalue(), code]))
"""


def test_a_new_command_is_one_file_listed_in_help_and_run(tmp_path: Path) -> None:
    (tmp_path / "hello.py").write_text(_NEW_COMMAND)
    (tmp_path / "arena.yaml").write_text("compare:\n  judge: fake:from-arena-yaml\n")
    done = subprocess.run(
        [sys.executable, "-c", _ADD_FILE, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # its arena.yaml gives the judge: the command declared it uses one
    )
    assert done.returncode == 0, done.stderr
    help_text, printed, code = json.loads(done.stdout)
    assert "hello               greet someone (a command added as one file)" in help_text
    commands = help_text.split("{", 1)[1].split("}", 1)[0].split(",")
    assert commands[:3] == ["run", "hello", "runs"]  # its order: between run (10) and runs
    assert (printed, code) == ("hello arena, judged by fake:from-arena-yaml\n", 3)

"""Every code block of the docs works: Python blocks lint clean and run, and every `arena ...`
command line in a shell block parses with the real argparse parser (see blocks.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from pytest_examples import CodeExample, EvalExample
from ruff.__main__ import find_ruff_bin

from arena.cli import build_parser
from tests.docs.blocks import (
    ROOT,
    Block,
    blocks,
    command_lines,
    markdown_files,
    parse_problem,
    skipped,
)

pytestmark = pytest.mark.unit

PYTHON = [block for path in markdown_files() for block in blocks(path, "python")]
RUNNABLE = [block for block in PYTHON if not skipped(block)]
"""The blocks that run: a block fenced test="skip" needs a hosted service and is linted only."""
BASH = [block for path in markdown_files() for block in blocks(path, "bash")]
TRANSCRIPTS = [block for path in markdown_files() for block in blocks(path, "text")]
COMMANDS = [
    pytest.param(block, argv, id=f"{block.where}: arena {' '.join(argv)[:60]}")
    for block in BASH + TRANSCRIPTS
    for argv in command_lines(block.source, prompted_only=block in TRANSCRIPTS)
]


def _ruff(block: Block) -> str:
    """ruff's findings on a block, with the project's settings (pyproject.toml)."""
    name = f"docs_{block.path.stem}_{block.line}.py".replace("-", "_")
    done = subprocess.run(
        [find_ruff_bin(), "check", "--no-cache", "--stdin-filename", str(ROOT / "docs" / name)],
        input=block.source,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return "" if done.returncode == 0 else done.stdout + done.stderr


@pytest.mark.parametrize("block", PYTHON, ids=[b.where for b in PYTHON])
def test_python_block_is_ruff_clean(block: Block) -> None:
    assert _ruff(block) == "", f"{block.where}: ruff findings"


@pytest.fixture
def project_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory that sees the repository's files, so that relative paths in the
    examples (data/golden/..., data/variants/...) resolve, while arena.db lands here."""
    for entry in ROOT.iterdir():
        if entry.name not in {".git", ".venv", "arena.db", "site"} and not entry.name.startswith(
            "arena.db"
        ):
            (tmp_path / entry.name).symlink_to(entry)
    monkeypatch.chdir(tmp_path)
    # no example may reach a hosted service from the tests
    for name in ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY", "LANGSMITH_TRACING", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANGSMITH_ENDPOINT", "http://127.0.0.1:9")
    return tmp_path


@pytest.mark.system  # real pipelines on scripted models: a second or two each
@pytest.mark.parametrize("block", RUNNABLE, ids=[b.where for b in RUNNABLE])
def test_python_block_runs(block: Block, project_dir: Path, eval_example: EvalExample) -> None:
    example = CodeExample.create(block.source, path=block.path, start_line=block.line)
    eval_example.run(example, module_globals={"__name__": "__main__"})


@pytest.mark.parametrize(("block", "argv"), COMMANDS)
def test_arena_command_parses(block: Block, argv: list[str]) -> None:
    problem = parse_problem(build_parser(), argv)
    assert problem is None, f"{block.where}: `arena {' '.join(argv)}`: {problem}"

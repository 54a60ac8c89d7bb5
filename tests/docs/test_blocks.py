"""The docs-block checker itself: it finds blocks and refuses command lines argparse refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import build_parser
from tests.docs.blocks import blocks, command_lines, parse_problem

pytestmark = pytest.mark.unit


def test_blocks_are_found_by_language_with_their_line(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# t\n\n```python\nx = 1\n```\n\n```bash\narena runs\n```\n\n"
        '```python test="skip"\ny = 2\n```\n\n```yaml\narena: 1\n```\n',
        encoding="utf-8",
    )
    python = list(blocks(page, "python"))
    assert [(b.line, b.source) for b in python] == [(3, "x = 1\n"), (11, "y = 2\n")]
    assert [b.source for b in blocks(page, "bash")] == ["arena runs\n"]


def test_command_lines_skip_prompts_env_comments_and_other_commands() -> None:
    source = (
        "$ arena run --variants a.yaml \\\n    --repeats 2   # comment\n"
        "ARENA_DB_URL=sqlite:///x.db .venv/bin/arena runs --json && cat out | grep arena\n"
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/arena demo\n"
        "echo arena\n"
    )
    assert list(command_lines(source)) == [
        ["run", "--variants", "a.yaml", "--repeats", "2"],
        ["runs", "--json"],
        ["demo"],
    ]


def test_a_transcript_yields_only_its_prompted_lines() -> None:
    source = "$ arena runs\nrun  created\narena output that is not a command\n$ arena score 1\n"
    assert list(command_lines(source, prompted_only=True)) == [["runs"], ["score", "1"]]


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["run", "--variants", "a.yaml", "--repeats", "N"], None),  # a placeholder value
        (["gate", "--config", "arena.yaml"], None),
        (["run", "..."], None),  # elided: required flags may be missing
        (["run", "--variants", "a.yaml", "--no-such-flag"], "unrecognized arguments"),
        (["runn"], "invalid choice"),
        (["baseline", "sav", "x"], "invalid choice"),
        (["run"], "required"),
        (["run", "--tier", "gold", "--variants", "a.yaml"], "invalid choice"),
    ],
)
def test_parse_problem(argv: list[str], problem: str | None) -> None:
    found = parse_problem(build_parser(), argv)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem in found

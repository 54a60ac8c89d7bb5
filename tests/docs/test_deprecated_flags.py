"""No page teaches a deprecated flag: every `arena ...` command a page names (in a command
block, a transcript, a sample output or inline code) uses only current spellings."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import build_parser
from tests.docs.blocks import ROOT, deprecated_options, doc_commands, markdown_files

pytestmark = pytest.mark.unit


def test_no_page_names_a_deprecated_flag() -> None:
    parser = build_parser()
    found = [
        f"{path.relative_to(ROOT)}:{line}: arena {' '.join(argv)}: {', '.join(flags)}"
        for path in markdown_files()
        for line, argv in doc_commands(path)
        if (flags := deprecated_options(parser, argv))
    ]
    assert found == [], "\n".join(found)


def test_the_pages_name_commands_at_all() -> None:
    commands = [argv for path in markdown_files() for _, argv in doc_commands(path)]
    assert len(commands) > 100 and ["ratings"] in commands


@pytest.mark.parametrize(
    ("argv", "flags"),
    [
        (["ratings", "--judge", "2062042dae8a"], ["--judge"]),
        (["ratings", "--judge-key", "2062042dae8a"], []),
        (["compare", "--baseline", "a", "--candidate", "b", "--judge", "k"], ["--judge"]),
        (["compare", "--sequential", "--judge", "local:x"], []),
        (["judge", "--judge", "local:x"], []),
        (["judge", "--with-trajectory"], ["--with-trajectory"]),  # hidden, kept for old scripts
        (["battles", "export", "--run", "3"], ["--run"]),
    ],
)
def test_a_deprecated_spelling_is_found(argv: list[str], flags: list[str]) -> None:
    assert deprecated_options(build_parser(), argv) == flags


def test_a_sample_output_naming_a_deprecated_flag_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Run `arena runs`.\n\n```text\n(the grades judge's leaderboard: "
        "`arena ratings --judge 2062042dae8a`)\n```\n"
    )
    parser = build_parser()
    assert [deprecated_options(parser, argv) for _, argv in doc_commands(page)] == [
        [],
        ["--judge"],
    ]

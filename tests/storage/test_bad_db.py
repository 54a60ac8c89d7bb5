"""Every bad --db is an InputError naming --db, and nothing is created or written (defect 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import InputError
from arena.storage import Store

pytestmark = pytest.mark.unit

NOTES = "just some notes, not a database\n" * 10


def _bad_urls(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """case -> (URL, a phrase the message must contain)."""
    (tmp_path / "notes.txt").write_text(NOTES)
    (tmp_path / "folder").mkdir()
    return {
        "under a file": (f"sqlite:///{tmp_path / 'notes.txt' / 'arena.db'}", "is a file"),
        "missing folder": (
            f"sqlite:///{tmp_path / 'nowhere' / 'deeper' / 'arena.db'}",
            "does not exist",
        ),
        "text file": (f"sqlite:///{tmp_path / 'notes.txt'}", "not an SQLite database"),
        "a folder": (f"sqlite:///{tmp_path / 'folder'}", "is a folder"),
        "refused postgres": (
            "postgresql+psycopg://arena:s3cret@127.0.0.1:1/arena",
            "cannot open the database",
        ),
        "not a url": ("arena.db", "not a database URL"),
        "unknown dialect": ("nosuchdb://host/arena", "unknown database dialect"),
    }


CASES = [
    "under a file",
    "missing folder",
    "text file",
    "a folder",
    "refused postgres",
    "not a url",
    "unknown dialect",
]


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): (p.read_bytes() if p.is_file() else b"<dir>")
        for p in sorted(root.rglob("*"))
    }


@pytest.mark.parametrize("case", CASES)
def test_store_refuses_bad_url(case: str, tmp_path: Path) -> None:
    url, phrase = _bad_urls(tmp_path)[case]
    before = _snapshot(tmp_path)
    with pytest.raises(InputError) as caught:
        Store(url)
    message = str(caught.value)
    assert message.startswith("--db ") and phrase in message, message
    assert "s3cret" not in message  # a password in the URL is never printed
    assert _snapshot(tmp_path) == before  # nothing created, nothing written


@pytest.mark.parametrize("case", CASES)
def test_cli_exits_2_naming_db(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url, phrase = _bad_urls(tmp_path)[case]
    before = _snapshot(tmp_path)
    assert main(["runs", "--db", url]) == 2
    err = capsys.readouterr().err
    assert "--db" in err and phrase in err and "Traceback" not in err
    assert _snapshot(tmp_path) == before


def test_env_url_is_named_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_DB_URL", "nosuchdb://x")
    with pytest.raises(InputError, match=r"^--db \(\$ARENA_DB_URL\) nosuchdb://x"):
        Store()


def test_good_urls_still_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()  # an empty file is a fresh SQLite database
    for url in (f"sqlite:///{tmp_path / 'new.db'}", f"sqlite:///{empty}", "sqlite://"):
        Store(url).runs()
    relative = tmp_path / "rel"
    relative.mkdir()
    monkeypatch.chdir(relative)
    Store("sqlite:///arena.db")
    assert (relative / "arena.db").read_bytes().startswith(b"SQLite format 3\x00")

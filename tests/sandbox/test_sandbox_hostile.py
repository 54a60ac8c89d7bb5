"""Sandbox.write never raises and never writes outside its folder; task folders are created
fresh, never shared, and removed only inside the sandbox root."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.paths import run_sandbox, safe_name
from arena.sandbox import MAX_SNAPSHOT_FILES, Sandbox, SandboxError

pytestmark = pytest.mark.unit

HOSTILE_PATHS: list[object] = [
    "a/" * 2000 + "x",
    "x\ud800",
    "\udcff.txt",
    "notes/\udc80/x.txt",
    "a" * 256,
    "é" * 200,
    "/".join(["b" * 200] * 30),
    "a/" * 33 + "x",
    "x" * 5000,
    "\x00",
    "a\x00b",
    "a\nb.txt",
    "a\rb",
    "tab\there",
    "bell\x07",
    "del\x7f",
    "/etc/passwd",
    "//server/share",
    "~root/.ssh/authorized_keys",
    "~",
    "C:\\Windows\\win.ini",
    "c:x",
    "..",
    "../..",
    "../x",
    "a/../../x",
    "a/b/../../../x",
    "..\\..\\x",
    ".\\..\\x",
    "./../x",
    "a/./../../x",
    "/",
    "\\",
    "",
    " ",
    "\t",
    ".",
    "./",
    "a/",
    "notes\\",
    42,
    None,
    b"bytes.txt",
    ["list.txt"],
    {"path": "x"},
    3.5,
    True,
    "\u202e" + "txt.exe\x00",
    "..." + "/" * 1100,
    "a" * 1025,
    "\ud83d",
    "ok/\udfff",
    "/dev/null",
    "/proc/self/mem",
]


def test_there_are_enough_hostile_paths() -> None:
    assert len(HOSTILE_PATHS) >= 54


@pytest.mark.parametrize("path", HOSTILE_PATHS, ids=[f"p{i}" for i in range(len(HOSTILE_PATHS))])
def test_write_never_raises_and_writes_nothing(tmp_path: Path, path: object) -> None:
    sandbox = Sandbox(tmp_path / "box")
    result = sandbox.write(path, "x")  # type: ignore[arg-type]
    assert isinstance(result, str) and result.startswith("Error:"), result
    assert len(result) < 400
    assert sandbox.files() == {}
    assert sorted(p.name for p in tmp_path.iterdir()) in ([], ["box"])


@pytest.mark.parametrize(
    "content",
    ["\ud800", "ok \udfff", "\udc80" * 10, b"bytes", None, 7, "x" * 100_001, "é" * 50_001],
)
def test_bad_content_is_an_error_not_an_exception(tmp_path: Path, content: object) -> None:
    sandbox = Sandbox(tmp_path / "box")
    result = sandbox.write("notes/a.txt", content)  # type: ignore[arg-type]
    assert result.startswith("Error:") and sandbox.files() == {}


def test_write_through_a_file_on_the_way_is_an_error(tmp_path: Path) -> None:
    sandbox = Sandbox(tmp_path / "box")
    assert sandbox.write("notes", "a file").startswith("Wrote")
    assert sandbox.write("notes/inner.txt", "x").startswith("Error:")
    assert sandbox.files() == {"notes": "a file"}


def test_unicode_names_and_exact_bytes(tmp_path: Path) -> None:
    sandbox = Sandbox(tmp_path / "box")
    assert sandbox.write("données/résumé.md", "line 1\r\nline 2\n") == (
        "Wrote 15 characters to données/résumé.md."
    )
    assert (tmp_path / "box" / "données" / "résumé.md").read_bytes() == b"line 1\r\nline 2\n"


def test_snapshot_survives_foreign_files(tmp_path: Path) -> None:
    """A bring-your-own agent may leave anything in its sandbox folder."""
    box = tmp_path / "box"
    box.mkdir()
    (box / "good.txt").write_text("ok")
    os.mkfifo(box / "fifo")
    (box / "link").symlink_to("/etc/hostname")
    (box / os.fsdecode(b"bad-\xff.txt")).write_bytes(b"\xfe\xff")
    (box / "unreadable.txt").write_text("secret")
    (box / "unreadable.txt").chmod(0)
    files = Sandbox(box).files()
    assert files["good.txt"] == "ok" and "bad-\ufffd.txt" in files
    assert "fifo" not in files and "link" not in files
    for name in files:
        name.encode("utf-8")  # every name is storable text


def test_snapshot_is_capped(tmp_path: Path) -> None:
    box = tmp_path / "box"
    box.mkdir()
    for i in range(MAX_SNAPSHOT_FILES + 20):
        (box / f"f{i:04}.txt").write_text("x")
    assert len(Sandbox(box).files()) == MAX_SNAPSHOT_FILES


# --- task folders --------------------------------------------------------------------------------


def test_create_makes_a_fresh_folder_each_time(tmp_path: Path) -> None:
    folder = tmp_path / "run-1" / "variant" / "C-1-r0"
    first = Sandbox.create(folder, base=tmp_path)
    assert first.write("a.txt", "first").startswith("Wrote")
    second = Sandbox.create(folder, base=tmp_path)
    assert first.root != second.root and second.files() == {}
    assert first.files() == {"a.txt": "first"}
    assert first.root.parent == second.root.parent == folder.parent.resolve()


def test_create_refuses_a_folder_outside_the_root(tmp_path: Path) -> None:
    with pytest.raises(SandboxError, match="outside the sandbox root"):
        Sandbox.create(tmp_path / "elsewhere" / "x", base=tmp_path / "root")
    with pytest.raises(SandboxError, match="outside the sandbox root"):
        Sandbox.create(tmp_path / "root" / ".." / ".." / "x", base=tmp_path / "root")
    assert not (tmp_path / "elsewhere").exists()


def test_create_sanitises_an_unsafe_folder_name(tmp_path: Path) -> None:
    sandbox = Sandbox.create(tmp_path / "v" / "..x r0\u202e", base=tmp_path)
    assert sandbox.root.parent == (tmp_path / "v").resolve()
    assert sandbox.root.name.startswith("x_r0_-") and sandbox.root.is_dir()
    with pytest.raises(SandboxError, match="outside the sandbox root"):
        Sandbox.create(tmp_path / "v" / "../../../x r0", base=tmp_path)


def test_release_snapshots_then_removes_only_inside_the_root(tmp_path: Path) -> None:
    sandbox = Sandbox.create(tmp_path / "v" / "C-r0", base=tmp_path)
    sandbox.write("notes/a.txt", "kept in the snapshot")
    assert sandbox.release() == {"notes/a.txt": "kept in the snapshot"}
    assert not sandbox.root.exists()
    assert sandbox.write("late.txt", "x").startswith("Error:")  # a late tool call
    assert not sandbox.root.exists()


@pytest.mark.parametrize(
    "make",
    [
        lambda t: Sandbox(t / "victim", base=t / "root"),  # outside the root
        lambda t: Sandbox(t / "root", base=t / "root"),  # the root itself
        lambda t: Sandbox(t / "root" / ".." / "victim", base=t / "root"),  # climbs out
        lambda t: Sandbox(t / "victim"),  # no root given
    ],
)
def test_release_never_removes_outside_the_root(tmp_path: Path, make) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "root").mkdir()
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "precious.txt").write_text("keep")
    (tmp_path / "root" / "other.txt").write_text("keep")
    with pytest.raises(SandboxError, match="refusing to remove"):
        make(tmp_path).release()
    assert (tmp_path / "victim" / "precious.txt").read_text() == "keep"
    assert (tmp_path / "root" / "other.txt").read_text() == "keep"


def test_release_refuses_a_symlinked_folder(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "precious.txt").write_text("keep")
    (tmp_path / "root" / "link").symlink_to(tmp_path / "victim")
    with pytest.raises(SandboxError):
        Sandbox(tmp_path / "root" / "link", base=tmp_path / "root").release()
    assert (tmp_path / "victim" / "precious.txt").exists()


# --- names never come from raw text ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "../../x",
        "/some/dir",
        "..",
        ".",
        "",
        "a/b",
        "a\\b",
        "~",
        "x\x00y",
        "\ud800",
        " ",
        ".hidden",
        "C-1" * 100,
    ],
)
def test_safe_name_is_one_harmless_component(text: str) -> None:
    name = safe_name(text)
    assert "/" not in name and "\\" not in name and name not in (".", "..")
    assert not name.startswith(".") and len(name) <= 51
    assert all(c.isascii() and (c.isalnum() or c in "._-") for c in name)


def test_safe_name_keeps_different_texts_apart() -> None:
    texts = ["a/b", "a_b", "a b", "a\\b", "a:b", "A_b"]
    assert len({safe_name(t) for t in texts}) == len(texts)


def test_run_folders_are_unique_per_database_and_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_SANDBOX_DIR", str(tmp_path / "sb"))
    one, two = f"sqlite:///{tmp_path}/a/arena.db", f"sqlite:///{tmp_path}/b/arena.db"
    folders = {run_sandbox(one, 1), run_sandbox(two, 1), run_sandbox(one, 2)}
    assert len(folders) == 3
    assert all(f.is_relative_to(tmp_path / "sb") for f in folders)
    assert run_sandbox(one, 1) == run_sandbox(one, 1)


def test_relative_sqlite_paths_in_two_folders_are_two_databases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "a")
    first = run_sandbox("sqlite:///arena.db", 1)
    monkeypatch.chdir(tmp_path / "b")
    assert run_sandbox("sqlite:///arena.db", 1) != first


def test_run_folder_names_hold_no_password(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_SANDBOX_DIR", str(tmp_path))
    folder = run_sandbox("postgresql+psycopg://user:hunter2@db.example/arena", 3)
    assert "hunter2" not in str(folder) and folder.name == "run-3"
    assert folder == run_sandbox("postgresql+psycopg://user:other@db.example/arena", 3)

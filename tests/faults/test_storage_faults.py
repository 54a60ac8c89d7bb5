"""The machine refusing a write mid-run (a file-size limit, a read-only database, a full disk)
ends ``arena`` with exit 3 and one line saying what and what to do, never exit 70 and a
traceback; what finished is kept and the same command resumes.

The file-size limit is real (``RLIMIT_FSIZE`` set in the child process), the read-only
database a real ``chmod 444`` (as root, the child drops ``CAP_DAC_OVERRIDE`` first, so the
mode binds it as it binds any user), the full disk a real tmpfs of 8 MiB filled up (mounted
where this is allowed: as root), and, everywhere, a report written to ``/dev/full`` (a real
``ENOSPC`` from the kernel)."""

from __future__ import annotations

import ctypes
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arena.storage import Store
from tests.mutation.conftest import DESK

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[2]
RUN = ("run", "--variants", "variants/baseline.yaml", "--dataset", "golden/desk.json")
PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER = 24, 1, 2, 3


def _arena(
    folder: Path, *argv: str, before: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    env.update(PYTHONPATH=str(ROOT), ARENA_SANDBOX_DIR=str(folder / ".sandboxes"))
    return subprocess.run(
        [sys.executable, "-m", "arena.cli", "--fake-scripts", "fake_models.yaml", *argv],
        cwd=folder, env=env, capture_output=True, text=True, timeout=300, preexec_fn=before,
    )  # fmt: skip


def _one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The command's one ``arena: error:`` line (and no traceback)."""
    assert done.returncode == 3, (done.returncode, done.stderr[-3000:])
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("arena:")]
    assert line.startswith("arena: error: ") and "a write failed, " in line
    assert line.endswith("then rerun the same command: what finished is kept and the run resumes")
    return line


def _stored(folder: Path) -> int:
    store = Store(f"sqlite:///{folder / 'arena.db'}")
    return sum(len(store.results(run.id)) for run in store.runs())


@pytest.fixture
def desk(tmp_path: Path) -> Path:
    folder = tmp_path / "desk"
    shutil.copytree(DESK, folder)
    assert _arena(folder, *RUN).returncode == 0  # the database exists, 2 results
    return folder


def test_a_file_size_limit_mid_run_is_exit_3_and_the_rerun_resumes(desk: Path) -> None:
    size = (desk / "arena.db").stat().st_size

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    line = _one_error_line(_arena(desk, *RUN, "--repeats", "20", before=limit))
    assert f"a file-size limit of {size} bytes is set" in line and "ulimit -f" in line
    assert _arena(desk, *RUN, "--repeats", "20").returncode == 0  # no limit: it resumes
    assert _stored(desk) == 2 + 40


def _no_override() -> None:
    """As root: give up overriding file modes, so a read-only file binds this process."""
    if os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER):
            assert libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0, ctypes.get_errno()


def test_a_read_only_database_is_exit_3(desk: Path) -> None:
    (desk / "arena.db").chmod(0o444)
    line = _one_error_line(_arena(desk, *RUN, "--repeats", "3", before=_no_override))
    assert "read-only" in line and "make the database, its folder and the output writable" in line
    (desk / "arena.db").chmod(0o644)
    assert _arena(desk, *RUN, "--repeats", "3").returncode == 0


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(disk)], capture_output=True
    )
    if mounted.returncode != 0:  # not root: the report on /dev/full below still runs
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def test_a_full_disk_is_exit_3_and_the_rerun_resumes(small_disk: Path) -> None:
    folder = small_disk / "desk"
    shutil.copytree(DESK, folder)
    assert _arena(folder, *RUN).returncode == 0
    filler = os.open(small_disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(filler, b"\0" * 4096):
            pass
    except OSError:  # ENOSPC: the disk is full
        pass
    finally:
        os.close(filler)
    line = _one_error_line(_arena(folder, *RUN, "--repeats", "20"))
    assert "the disk is full" in line and "free space on its disk" in line
    (small_disk / "filler").unlink()
    assert _arena(folder, *RUN, "--repeats", "20").returncode == 0
    assert _stored(folder) == 2 + 40


def test_a_report_on_a_full_device_is_exit_3(desk: Path) -> None:
    report = ("--report", "/dev/full", "--operators", "tool_raises")
    mutate = ("mutate", "--variant", "variants/baseline.yaml", "--dataset", "golden/desk.json")
    line = _one_error_line(_arena(desk, *mutate, *report))
    assert "the disk is full" in line

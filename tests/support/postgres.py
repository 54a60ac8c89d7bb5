"""A throwaway PostgreSQL cluster on a Unix socket in a temp folder (Debian's server binaries)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

PORT = "55439"


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        pytest.fail(
            "PostgreSQL server binaries not found: install the Debian package "
            "'postgresql' (.ci/run does)"
        )
    return found[-1]


def _as_postgres(args: list[str]) -> None:
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run(prefix + args, check=True, capture_output=True, timeout=120)


@contextmanager
def postgres_cluster(databases: tuple[str, ...] = ("arena",)) -> Iterator[dict[str, str]]:
    """Start a cluster with these (empty) databases; yield name -> SQLAlchemy URL; stop it."""
    # Not under pytest's tmp folder: the postgres user must be able to reach it.
    root = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    root.chmod(0o755)
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    _as_postgres([_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"])
    _as_postgres(
        [
            _bin("pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(root / "log"),
            "-w",
            "-o",
            f"-k {sock} -p {PORT} -c listen_addresses='' -c fsync=off",
            "start",
        ]
    )
    try:
        for name in databases:
            _as_postgres([_bin("createdb"), "-h", str(sock), "-p", PORT, "-U", "postgres", name])
        yield {
            name: f"postgresql+psycopg://postgres@/{name}?host={sock}&port={PORT}"
            for name in databases
        }
    finally:
        _as_postgres([_bin("pg_ctl"), "-D", str(data), "-m", "fast", "stop"])
        shutil.rmtree(root, ignore_errors=True)

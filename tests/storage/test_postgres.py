"""The whole pipeline on PostgreSQL (a throwaway local cluster), through a SQLAlchemy URL."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.evaluate import score_run
from arena.judging import judge_run
from arena.leaderboard import build_leaderboard
from arena.models import ModelConfig, register_fake
from arena.storage import Store
from judges import JudgeSpec
from tests.judges.test_judges import _prefers_300, _run

pytestmark = pytest.mark.system
PORT = "55439"


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        pytest.fail("PostgreSQL server binaries not found: install the Debian package "
                    "'postgresql' (.ci/run does)")
    return found[-1]


def _as_postgres(args: list[str]) -> None:
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run(prefix + args, check=True, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """Start a PostgreSQL cluster on a Unix socket in a temp folder; stop it afterwards."""
    # Not under pytest's tmp folder: the postgres user must be able to reach it.
    root = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    root.chmod(0o755)
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    _as_postgres([_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"])
    _as_postgres([_bin("pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w", "-o",
                  f"-k {sock} -p {PORT} -c listen_addresses=''", "start"])
    try:
        _as_postgres([_bin("createdb"), "-h", str(sock), "-p", PORT, "-U", "postgres", "arena"])
        yield f"postgresql+psycopg://postgres@/arena?host={sock}&port={PORT}"
    finally:
        _as_postgres([_bin("pg_ctl"), "-D", str(data), "-m", "fast", "stop"])
        shutil.rmtree(root, ignore_errors=True)


def test_pipeline_on_postgres(postgres_url: str) -> None:
    store = Store(postgres_url)
    run_id = _run(store)
    register_fake("judge", [_prefers_300], cycle=True)
    judged = judge_run(store, run_id, JudgeSpec(model=ModelConfig(spec="fake:judge")),
                       progress=False)
    assert judged.model_calls > 0
    scores = score_run(store, run_id)
    assert {v.variant for v in scores.variants} == {"good", "bad", "same"}
    board = build_leaderboard(store, run_id, bootstrap=100)
    ranked = {e.variant: e for e in board.entries}
    assert ranked["good"].rating is not None and ranked["bad"].rating is not None
    assert ranked["good"].rating > ranked["bad"].rating
    again = Store(postgres_url)
    assert again.run(run_id).results == 12
    assert judge_run(again, run_id, JudgeSpec(model=ModelConfig(spec="fake:judge")),
                     progress=False).model_calls == 0
    result = again.results(run_id)[0]
    assert again.result(result.id or -1).output == result.output

"""`arena judge` in every mode against a judge endpoint failing 20% and 50% of the time.

No failed judgement is ever counted as a tie or a win: a battle is decided only when both
orders were read, and then it agrees with the healthy judge. A rerun after the faults stop
sends exactly the calls that were missing (nothing answered before is asked again) and
decides every battle.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from arena.storage import Store
from tests.faults.scenario import (
    API_KEY,
    KEY_ENV,
    MODES,
    RATES,
    Files,
    cli_json,
    resent,
    write_files,
)
from tests.support.fault_server import ALL, FaultServer

pytestmark = pytest.mark.system

JUDGE_FAULTS = (*ALL, "echo_key")


@pytest.fixture(scope="module")
def judged_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[FaultServer, Files]]:
    """One healthy run of three variants, shared by every judge test (each copies the db)."""
    mp = pytest.MonkeyPatch()
    mp.setenv(KEY_ENV, API_KEY)
    mp.setenv("ARENA_RETRIES", "2")
    mp.setenv("ARENA_RETRY_DELAY", "0")
    root = tmp_path_factory.mktemp("judged")
    mp.setenv("ARENA_SANDBOX_DIR", str(root / "sandboxes"))
    try:
        with FaultServer(hang_s=30) as server:
            files = write_files(root, server.base_url, f"sqlite:///{root / 'arena.db'}")
            run, _ = cli_json(files.run_args())
            assert all(r["error"] is None for r in run["results"])
            yield server, files
    finally:
        mp.undo()


def _copy(files: Files, tmp_path: Path) -> Files:
    source = Path(files.db.removeprefix("sqlite:///"))
    target = tmp_path / "arena.db"
    conn = sqlite3.connect(source, isolation_level=None)
    try:
        conn.execute("VACUUM INTO ?", (str(target),))  # a consistent copy of a WAL database
    finally:
        conn.close()
    return Files(
        files.root,
        files.base_url,
        f"sqlite:///{target}",
        files.dataset,
        files.variants,
        files.inputs,
    )


def _failed_orders(battle: dict[str, Any]) -> int:
    return sum(
        1
        for v in (battle["verdict_ab"], battle["verdict_ba"])
        if v is None or v.get("error") or v.get("label") is None
    )


def _check_battles(files: Files, battles: list[dict[str, Any]], mode: str) -> int:
    """Every failure is an error, never a tie or a win; returns the number of error battles."""
    pairs = len(list(combinations(files.variants, 2)))
    assert len(battles) == pairs * len(files.inputs)
    assert len({(b["case_id"], b["variant_a"], b["variant_b"]) for b in battles}) == len(battles)
    errors = 0
    for b in battles:
        assert b["winner"] in ("model_a", "model_b", "tie", "tie (bothbad)", "error")
        if b["winner"] == "error":
            errors += 1
            assert b["error"] and API_KEY not in str(b["error"])
            continue
        if mode != "grades":  # grades mode has no per-order verdict text
            assert _failed_orders(b) == 0, b
        assert not b["error"], b
        if "strong" in (b["variant_a"], b["variant_b"]):
            strong_side = "model_a" if b["variant_a"] == "strong" else "model_b"
            assert b["winner"] == strong_side, b  # agrees with the healthy judge
    return errors


@pytest.mark.parametrize("rate", RATES)
@pytest.mark.parametrize("mode", MODES)
def test_judge_under_faults_then_rerun(
    mode: str, rate: float, tmp_path: Path, judged_run: tuple[FaultServer, Files]
) -> None:
    server, shared = judged_run
    files = _copy(shared, tmp_path)
    server.reset()
    server.configure(rate=rate, kinds=JUDGE_FAULTS, seed=int(rate * 100) + len(mode))
    first, printed = cli_json(files.judge_args(mode))
    assert API_KEY not in printed
    errors = _check_battles(files, first["battles"], mode)
    faulty = server.log()
    assert sum(kind != "ok" for _, kind, _ in faulty) > 0

    server.configure(rate=0.0)
    server.reset()
    again, _ = cli_json(files.judge_args(mode))
    assert _check_battles(files, again["battles"], mode) == 0
    decided = {
        (b["case_id"], b["variant_a"], b["variant_b"]): b["winner"]
        for b in first["battles"]
        if b["winner"] != "error"
    }
    final = {(b["case_id"], b["variant_a"], b["variant_b"]): b["winner"] for b in again["battles"]}
    assert {k: final[k] for k in decided} == decided
    assert resent(faulty, server.log()) == []  # nothing answered before is asked again
    if mode != "grades":  # one call per failed order; grades share one call per answer
        missing = sum(_failed_orders(b) for b in first["battles"] if b["winner"] == "error")
        assert len(server.log()) == again["model_calls"] == missing
    elif errors == 0:
        assert server.log() == []
    stored = Store(files.db).battles()
    assert len(stored) == len(again["battles"]) and all(b.winner != "error" for b in stored)

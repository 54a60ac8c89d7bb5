"""``arena shadow --executor ray`` on the real two-node cluster: the candidate's runs and the
judge's pairs go to the Ray workers, the report equals the local executor's, and a rerun
sends nothing (the candidate's replies and the verdicts are cached in the database)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cluster.cluster import Cluster
from tests.faults.scenario import API_KEY, KEY_ENV, Files, cli_json, write_files
from tests.support.fault_server import FaultServer

pytestmark = pytest.mark.system


def _traces(files: Files) -> Path:
    """Production's answers to the scenario's questions, one trace a line."""
    path = files.root / "prod.jsonl"
    rows = [
        {"trace_id": case_id, "query": query, "answer": f"production answer to {case_id}"}
        for case_id, query in files.inputs.items()
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def _shadow(files: Files, *extra: str) -> list[str]:
    return ["shadow", "--traces", str(_traces(files)), "--candidate", str(files.variants[1]),
            "--judge", str(files.judge("text")), "--sample", "0.8", "--seed", "3",
            "--concurrency", "4", "--db", files.db, "--json", *extra]  # fmt: skip


def test_shadow_on_ray_equals_local_and_the_rerun_sends_nothing(
    cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, API_KEY)
    with FaultServer() as here, FaultServer() as there:
        local = write_files(tmp_path / "local", here.base_url, f"sqlite:///{tmp_path / 'l.db'}")
        remote = write_files(tmp_path / "ray", there.base_url, f"sqlite:///{tmp_path / 'r.db'}")
        want, _ = cli_json(_shadow(local))
        ray = ["--executor", "ray", "--ray-address", cluster.address]
        got = cluster.arena_json(_shadow(remote, *ray), timeout=300)
        sent = there.stats()["requests"]
        again = cluster.arena_json(_shadow(remote, *ray), timeout=300)
        assert there.stats()["requests"] == sent  # nothing reached the model server again

    assert got == want  # sampled, battles, win rate, interval, verdict, losses, model calls
    assert 0 < got["sampled"] < len(local.inputs) and got["battles"] == got["sampled"]
    assert got["losses"] and got["win_rate"] < 1  # the weak candidate lost some traces
    assert got["model_calls"] == sent == 3 * got["sampled"]  # one answer, two judge orders
    assert again == {**got, "model_calls": 0}

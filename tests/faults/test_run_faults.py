"""`arena run` against an endpoint that fails 20% and 50% of the time, then recovers.

Every case ends with the exact answer or a recorded error (never garbage, never an empty
answer); the API key an endpoint echoes is never stored or printed; a rerun after the faults
stop sends exactly the calls that were missing and completes everything.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.storage import Store
from tests.faults.scenario import (
    API_KEY,
    KEY_ENV,
    RATES,
    Files,
    cli_json,
    expected_answer,
    resent,
    write_files,
)
from tests.support.fault_server import TRANSIENT, FaultServer

pytestmark = pytest.mark.system

# Agent-side faults: judge-only ones (no logprobs, no verdict) do not apply to answers.
RUN_FAULTS = (*TRANSIENT, "bad_json", "empty_choices", "empty_content", "echo_key")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FaultServer]:
    """A fault server; retries: two attempts, no delay."""
    monkeypatch.setenv(KEY_ENV, API_KEY)
    monkeypatch.setenv("ARENA_RETRIES", "2")
    with FaultServer(hang_s=30) as fault_server:
        yield fault_server


def _check_outcomes(files: Files, results: list[dict[str, object]]) -> int:
    """Every result is the exact answer or has an error; returns the number of errors."""
    assert len(results) == len(files.variants) * len(files.inputs)
    assert len({(r["variant"], r["case_id"], r["repeat"]) for r in results}) == len(results)
    errors = 0
    for r in results:
        if r["error"]:
            errors += 1
            assert API_KEY not in str(r["error"])
        else:
            want = expected_answer(str(r["variant"]), files.inputs[str(r["case_id"])])
            assert r["output"] == want, r  # never garbage, never an empty answer
    return errors


@pytest.mark.parametrize("rate", RATES)
def test_run_under_faults_then_rerun(rate: float, tmp_path: Path, server: FaultServer) -> None:
    files = write_files(tmp_path, server.base_url, f"sqlite:///{tmp_path / 'arena.db'}")
    server.configure(rate=rate, kinds=RUN_FAULTS, seed=int(rate * 100))
    first, printed = cli_json(files.run_args())
    errors = _check_outcomes(files, first["results"])
    assert API_KEY not in printed
    store = Store(files.db)
    info = store.run(first["run_id"])
    assert info.status == "finished" and info.results == len(first["results"])
    assert info.errors == errors
    assert all(API_KEY not in (r.error or "") for r in store.results(info.id))
    faulty = server.log()
    assert sum(kind != "ok" for _, kind, _ in faulty) > 0

    server.configure(rate=0.0)
    server.reset()
    again, _ = cli_json(files.run_args("--retry-errors"))
    assert _check_outcomes(files, again["results"]) == 0
    assert again["reused_results"] == len(first["results"]) - errors
    assert again["model_calls"] == errors == len(server.log())  # exactly the missing calls
    assert resent(faulty, server.log()) == []
    assert store.run(info.id).errors == 0 and store.run(info.id).results == info.results
    kept = {r["id"]: r["output"] for r in first["results"] if not r["error"]}
    assert {r["id"]: r["output"] for r in again["results"] if r["id"] in kept} == kept

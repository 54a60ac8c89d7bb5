"""Issue 46, "Secret": keys, tokens and credentials are taken out of everything the store
writes, whatever ``--redact`` says: nested values and dict keys alike (one function,
:func:`arena.secrets.scrub`, applied at the storage boundary)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.golden import GoldenDataset
from arena.records.results import RunResult, TrajectoryStep
from arena.secrets import REDACTED, scrub
from arena.storage import Store

pytestmark = pytest.mark.unit

KEY = "sk-proj-" + "A1b2C3d4E5f6G7h8J9k0"
GITHUB = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8"


def test_scrub_walks_keys_and_values_nested() -> None:
    value = {
        "outer": [{KEY: "as a key", "note": f"use {GITHUB} then"}],
        "password": "hunter2-is-mine",
        "headers": {"Authorization": "Token abc", "X-Api-Key": "plain-value-123"},
        "count": 3,
    }
    clean = scrub(value)
    text = repr(clean)
    assert KEY not in text and GITHUB not in text
    assert "hunter2" not in text and "plain-value-123" not in text and "Token abc" not in text
    assert clean["password"] == REDACTED and clean["count"] == 3
    assert clean["outer"][0]["[key redacted]"] == "as a key"
    tokens = {"token": "YES", "logprob": -0.1, "max_tokens": 64}  # a model's tokens are data
    assert scrub(tokens) == tokens


def test_the_store_never_writes_a_key_in_a_result_or_a_run(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    dataset = GoldenDataset.model_validate(
        {
            "name": "d",
            "available_tools": [],
            "test_cases": [{"id": "C-1", "input": "q", "category": "happy_path"}],
        }
    )
    dataset_id = store.ensure_dataset(dataset)
    run_id, _ = store.open_run("k", dataset_id, {"note": {GITHUB: 1}, "auth_token": "tok-123456"})
    step = TrajectoryStep(
        index=0,
        tool="login",
        args={"user": {"api_key": "abcdef123456", KEY: "x"}, "text": f"bearer {GITHUB}"},
        observation=f"your key is {KEY}",
    )
    result = RunResult(
        run_id=run_id,
        variant="v",
        variant_hash="h" * 12,
        case_id="C-1",
        case_hash="c" * 16,
        output=f"Done with {KEY}.",
        steps=[step],
    )
    store.save_result(result)
    store.put("reply", "fake:x", {"content": f"echo {GITHUB}", KEY: 1})
    stored = (tmp_path / "arena.db").read_bytes()
    for secret in (KEY, GITHUB, "abcdef123456", "tok-123456"):
        assert secret.encode() not in stored, secret
    (back,) = store.results(run_id)
    assert back.output == "Done with [key redacted]."
    assert back.steps[0].args["user"]["api_key"] == REDACTED

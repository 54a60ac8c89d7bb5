"""Issue 46, "Secret": ``--redact`` walked values only, so e-mails and keys used as dict keys
in tool arguments were stored; and without ``--redact`` a key in a trace was stored as is.
Now keys, tokens and credentials are taken out of every trace read (keys and values, nested),
and ``--redact`` adds personal data, dict keys included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.production import redact_trace
from arena.production._trace import ProductionTrace
from tests.production.helpers import trace_rows, write_jsonl
from tests.production.scripted import register_models, variant_file

pytestmark = pytest.mark.system  # end to end through the CLI, on scripted models

KEY = "sk-ant-" + "Q1w2E3r4T5y6U7i8O9p0"
JUDGE = "fake:prefers-good/text"


def _rows() -> list[dict[str, object]]:
    rows = trace_rows(2, answer="GOOD answer")
    rows[0]["tools"] = [
        {
            "name": "notify",
            "arguments": {
                "recipients": {"jane@example.com": {"cc": ["bob@example.org"]}},
                KEY: {"nested": {"mary@example.net": "hi"}},
                "config": {"client_secret": "s3cr3t-value-99"},
            },
            "result": {"sent_to": {"jane@example.com": True, "ann@example.com": True}},
        }
    ]
    rows[0]["metadata"] = {"owner": {"joe@example.com": 1}}
    rows[1]["answer"] = f"GOOD answer, call me with {KEY}"
    return rows


def _shadow(tmp_path: Path, *more: str) -> list[str]:
    traces = write_jsonl(tmp_path / "prod.jsonl", _rows())
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    return ["shadow", "--traces", traces, "--candidate", variant_file(tmp_path, "c", "worse"),
            "--judge", JUDGE, "--db", db, "--json", *more]  # fmt: skip


def test_redact_takes_emails_used_as_keys_out_of_the_db(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    assert main(_shadow(tmp_path, "--redact")) == 0
    printed = capsys.readouterr().out
    stored = (tmp_path / "arena.db").read_bytes()
    for secret in ("jane@example.com", "bob@example.org", "mary@example.net",
                   "ann@example.com", "joe@example.com", KEY, "s3cr3t-value-99"):  # fmt: skip
        assert secret.encode() not in stored, secret
        assert secret not in printed, secret


def test_two_emails_used_as_keys_keep_both_values() -> None:
    trace = ProductionTrace.model_validate(_rows()[0])
    result = redact_trace(trace).tools[0].result
    assert result == {"sent_to": {"[email redacted]": True, "[email redacted] #2": True}}


def test_keys_and_credentials_are_never_stored_even_without_redact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    assert main(_shadow(tmp_path)) == 0
    printed = capsys.readouterr().out
    assert KEY not in printed and "[key redacted]" in printed  # the loss shows the answer
    stored = (tmp_path / "arena.db").read_bytes()
    assert KEY.encode() not in stored and b"s3cr3t-value-99" not in stored
    assert b"jane@example.com" in stored  # personal data only under --redact
    assert json.loads(printed)["battles"] == 2

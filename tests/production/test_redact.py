"""``--redact``: e-mails, phone numbers and keys out of every string of a trace."""

from __future__ import annotations

import pytest

from arena.production import ProductionTrace, redact_text, redact_trace

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("write to jane.doe+work@mail.example.co.uk today", "email"),
        ("call +1 415 555 0142 now", "phone"),
        ("call (020) 7946 0958 now", "phone"),
        ("call 06-12-34-56-78 now", "phone"),
        ("key sk-proj-AbCdEf0123456789xyzXYZ here", "key"),
        ("key sk-ant-api03-AbCdEf0123456789xyz here", "key"),
        ("token lsv2_pt_0123456789abcdef0123456789abcdef_12 here", "key"),
        ("token ghp_0123456789abcdefghijABCDEFGHIJ012345 here", "key"),
        ("aws AKIAIOSFODNN7EXAMPLE here", "key"),
        ("Authorization: Bearer abcdefghijklmnop0123456789 here", "key"),
    ],
)
def test_each_rule_replaces_what_it_finds(text: str, rule: str) -> None:
    counts: dict[str, int] = {}
    clean = redact_text(text, counts)
    assert f"[{rule} redacted]" in clean and counts == {rule: 1}
    assert clean.split()[0] == text.split()[0] and clean.split()[-1] == text.split()[-1]


@pytest.mark.parametrize(
    "text",
    [
        "The meeting is on 2026-12-01 at 10:30.",
        "Order 12345 costs $29.99 and weighs 1.5 kg.",
        "Version 3.11.9 of Python, ISBN-free.",
        "user at example dot com",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact_text(text) == text


def test_every_string_of_a_trace_is_redacted_and_its_id_kept() -> None:
    trace = ProductionTrace.model_validate(
        {
            "trace_id": "bob@example.com",
            "query": "I am bob@example.com",
            "answer": "We will call +44 20 7946 0958",
            "tools": [{"name": "crm", "arguments": {"email": "bob@example.com"}, "result": "ok"}],
            "error": "401 for key sk-AbCdEf0123456789xyzXYZ",
            "metadata": {"user": {"email": "bob@example.com"}, "n": 3},
        }
    )
    counts: dict[str, int] = {}
    clean = redact_trace(trace, counts)
    text = clean.model_dump_json()
    assert "bob@example.com" not in text and "7946" not in text and "sk-AbCd" not in text
    assert clean.trace_id.startswith("trace-")  # an id holding an e-mail is hashed
    assert clean.metadata["n"] == 3
    assert counts == {"email": 4, "phone": 1, "key": 1}
    plain = ProductionTrace(trace_id="run-42", query="hi", answer="hello")
    assert redact_trace(plain).trace_id == "run-42"


#: 600,000 characters without an e-mail, phone or key (benchmarks/bounded_work.py times it).
LONG_WITHOUT_A_MATCH = "a" * 200_000 + "@" + "b" * 200_000 + " " + "1" * 200_000


def test_a_long_run_without_a_match_is_kept_as_is() -> None:
    """How long it takes (linear, not quadratic): ``python -m benchmarks bounded_work``."""
    assert redact_text(LONG_WITHOUT_A_MATCH) == LONG_WITHOUT_A_MATCH

"""Production traces made for the tests: JSONL files written on the fly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> str:
    """Write ``rows`` one JSON object a line; the path as text."""
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return str(path)


def trace_rows(n: int, *, answer: str = "GOOD answer", intents: int = 2) -> list[dict[str, Any]]:
    """``n`` traces, ``t0`` ... with distinct queries and ``answer`` plus their number."""
    return [
        {
            "trace_id": f"t{i}",
            "query": f"What is the capital of country number {i}?",
            "answer": f"{answer} {i}",
            "latency_s": 1.5,
            "metadata": {"intent": f"intent-{i % intents}"},
        }
        for i in range(n)
    ]

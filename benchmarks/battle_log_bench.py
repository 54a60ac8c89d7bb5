"""Benchmark: the ways a Chatbot-Arena log is read, side by side on one file.

Run:  python -m benchmarks battle_log_bench [--battles N] [--models M] [--rounds R]

A seeded JSONL log (N battles among M models, 10% ties, question ids) is written once, then
read, best of ``--rounds``, by:

- **load_battle_log** (the reader ``arena ratings --battles`` uses): the byte pre-check
  (:mod:`arena.inputs.scan`: nesting depth and NaN/Infinity, which pyarrow's parser would
  crash on or accept) and pyarrow's columnar parse;
- **pyarrow alone**: the same columnar parse without the pre-check (the fast path as it was
  before the pre-check; unsafe on hostile input);
- **pre-check alone**;
- **row by row**: the strict row reader (:func:`arena.inputs.files.read_json_rows` and
  :func:`arena.records.log_rows.arena_row`), which every log falls back to when the columnar
  path does not take it, and which vote files use;
- **load_votes**: the vote-file reader on the same rows (with a judge field).

The battles of the three battle readers are checked equal.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import WINNERS, draw_battles, timer


def write_log(path: Path, n: int, m: int, seed: int) -> None:
    """Seeded battles from normal(0, 1) log-strengths, 10% ties, question ids, a judge."""
    rng = np.random.default_rng(seed)
    draw = draw_battles(rng, n, m)
    a, b, outcome = draw.model_a, draw.model_b, draw.winner()
    query = rng.integers(0, max(1, n // 50), n)
    with path.open("w", encoding="utf-8") as fh:
        fh.writelines(
            json.dumps(
                {
                    "model_a": f"model-{a[i]:04d}",
                    "model_b": f"model-{b[i]:04d}",
                    "winner": WINNERS[outcome[i]],
                    "question_id": f"q{query[i]}",
                    "judge": "gpt-4",
                }
            )
            + "\n"
            for i in range(n)
        )


def best(rounds: int, call: Callable[[], Any]) -> tuple[float, Any]:
    """The best wall time of ``rounds`` calls, and the last result."""
    times, result = [], None
    for _ in range(rounds):
        with timer() as took:
            result = call()
        times.append(took.wall)
    return min(times), result


def main(argv: list[str] | None = None) -> None:
    """Parse the flags and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=1_000_000)
    parser.add_argument("--models", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    from arena.battle_log.fast_reader import read_fast
    from arena.battle_log.reader import load_battle_log, read_rows
    from arena.inputs.scan import plain_jsonl
    from arena.trust import load_votes

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "battles.jsonl"
        write_log(path, args.battles, args.models, args.seed)
        size = path.stat().st_size / 2**20
        print(f"log: {args.battles:,} battles, {args.models} models, {size:.0f} MiB")

        import arena.inputs.scan as scan

        def pyarrow_alone() -> Any:
            saved = scan.plain_jsonl
            scan.plain_jsonl = lambda *_a, **_k: True  # type: ignore[assignment]
            try:
                return read_fast(path, ())
            finally:
                scan.plain_jsonl = saved

        figures = {
            "load_battle_log (pre-check + pyarrow)": best(
                args.rounds, lambda: load_battle_log(path)
            ),
            "pyarrow alone (no pre-check)": best(args.rounds, pyarrow_alone),
            "pre-check alone": best(args.rounds, lambda: plain_jsonl(path)),
            "row by row (strict rows)": best(1, lambda: read_rows(path)),
            "load_votes (strict rows)": best(1, lambda: load_votes(path)),
        }
    one = figures["load_battle_log (pre-check + pyarrow)"][1]
    for name in ("pyarrow alone (no pre-check)", "row by row (strict rows)"):
        other = figures[name][1]
        assert other is not None and other.models == one.models, name
        assert np.array_equal(other.outcome, one.outcome), name
        assert np.array_equal(other.model_a, one.model_a), name
    fastest = min(t for name, (t, _) in figures.items() if name != "pre-check alone")
    print(f"{'reader':40} {'seconds':>8} {'vs fastest':>10}")
    for name, (seconds, _) in figures.items():
        print(f"{name:40} {seconds:8.3f} {seconds / fastest:9.1f}x")
    print("battles identical across the three battle readers")


if __name__ == "__main__":
    main()

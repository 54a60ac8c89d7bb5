"""Benchmark: one streaming pass that samples a large production-trace JSONL (traces per
second, peak memory).

Run:  python -m benchmarks production_sample_bench [--traces N] [--sample F] [--max K]
      [--stratify] [--redact]

A seeded JSONL of N traces (default one million; 5% of queries asked again, a handful of
intents) is written once, line by line, then sampled by :func:`arena.production.sampled_traces`
as ``arena shadow --traces FILE --sample F`` does: every line parsed by the safe reader and
validated, keys hashed, one trace kept per query. The figures are the pass's traces per
second and the process's peak RSS before and after it (the writer streams too), so the memory
the sample holds shows apart from the file's size.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path

from benchmarks.common import peak_rss_gib, timer


def write_traces(path: Path, n: int, seed: int = 0) -> int:
    """N seeded traces, one a line; the file's size in bytes."""
    rng = random.Random(seed)
    intents = ["billing", "refund", "account", "shipping", "other"]
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            asked = rng.randrange(i) if i and rng.random() < 0.05 else i  # a repeated query
            row = {
                "trace_id": f"trace-{i:08d}",
                "query": f"Customer question number {asked}: where is my order?",
                "answer": f"Your order {asked} ships tomorrow; contact support@example.com.",
                "latency_s": round(rng.uniform(0.3, 9.0), 3),
                "total_tokens": rng.randrange(200, 3000),
                "cost": round(rng.uniform(0.0001, 0.01), 6),
                "metadata": {"intent": intents[asked % len(intents)]},
            }
            fh.write(json.dumps(row) + "\n")
    return path.stat().st_size


def main(argv: list[str] | None = None) -> int:
    """Write the file, sample it once, print the figures."""
    from arena.production import SampleSpec, sampled_traces

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--traces", type=int, default=1_000_000)
    parser.add_argument("--sample", type=float, default=0.01)
    parser.add_argument("--max", type=int, default=None)
    parser.add_argument("--stratify", action="store_true", help="stratify by intent")
    parser.add_argument("--redact", action="store_true", help="redact the sample")
    args = parser.parse_args(argv)
    spec = SampleSpec(
        fraction=args.sample, max=args.max, seed=1, stratify="intent" if args.stratify else None
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "traces.jsonl"
        with timer() as wrote:
            size = write_traces(path, args.traces)
        before = peak_rss_gib()
        with timer() as took:
            sample, counts = sampled_traces(path, spec, redact=args.redact)
        after = peak_rss_gib()
    print(
        f"{args.traces} traces ({size / 2**20:.0f} MiB) written in {wrote.wall:.1f} s; "
        f"sampled --sample {args.sample:g}"
        + (f" --max {args.max}" if args.max else "")
        + (" --stratify intent" if args.stratify else "")
        + (" --redact" if args.redact else "")
    )
    print(
        f"one pass: {took.wall:.1f} s wall, {took.cpu:.1f} s CPU, "
        f"{sample.read / took.wall:,.0f} traces/s; kept {len(sample.traces)} "
        f"({sample.duplicates} duplicate queries counted once)"
        + (f"; redacted {sum(counts.values())}" if args.redact else "")
    )
    print(f"peak RSS: {before:.3f} GiB before the pass, {after:.3f} GiB after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

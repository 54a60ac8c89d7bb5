"""The million-trace sampling benchmark runs (here on a few thousand traces)."""

from __future__ import annotations

import pytest

from tests.support.benchmarks import load_benchmark

pytestmark = pytest.mark.unit


def test_the_benchmark_samples_a_streamed_file_and_prints_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load_benchmark("production_sample_bench")
    assert bench.main(["--traces", "2000", "--sample", "0.25", "--stratify", "--redact"]) == 0
    out = capsys.readouterr().out
    assert "2000 traces" in out and "traces/s" in out and "peak RSS" in out
    kept = int(out.split("kept ")[1].split()[0])
    assert 350 < kept < 650  # about a quarter of 2000, one per query

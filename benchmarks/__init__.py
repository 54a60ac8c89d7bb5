"""The benchmark suite: ``python -m benchmarks --list`` and ``python -m benchmarks NAME``.

Each benchmark is a module of this package with a ``main(argv)``; what they share (battles
simulated from known strengths, the timer, peak memory, load average, the stamp and the JSON
record) is :mod:`benchmarks.common`. The tools beside them build data or docs, not figures.
"""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: The benchmarks: each measures something and prints its figures.
BENCHMARKS = (
    "agent_version_bench",
    "battle_log_bench",
    "bounded_work",
    "conversation_bench",
    "judge_bench",
    "plan_estimate_bench",
    "production_sample_bench",
    "ratings_bench",
    "ratings_coverage",
    "ratings_e2e_bench",
    "ray_bench",
    "runner_bench",
    "scoring_checks_bench",
    "sequence_paths",
    "sequential_bench",
    "sequential_looks",
    "sequential_strategies",
    "tie_bench",
)
#: The tools: run the same way, they serve the benchmarks and the docs.
TOOLS = ("chat_server", "docs_figures", "llmbar_subset", "pandalm_subset")


def summary(name: str) -> str:
    """The first sentence of the module's docstring (read from the file: nothing is imported)."""
    tree = ast.parse((HERE / f"{name}.py").read_text(encoding="utf-8"))
    paragraph = (ast.get_docstring(tree) or "").strip().split("\n\n", 1)[0]
    sentence = " ".join(paragraph.split()).split(". ", 1)[0]
    return sentence if sentence.endswith((".", "?", ")")) else sentence + "."


__all__ = ["BENCHMARKS", "TOOLS", "summary"]

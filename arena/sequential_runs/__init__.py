"""Sequential compare and gate, and adaptive judging, on stored runs (the I/O side of
:mod:`arena.sequential`)."""

from arena.sequential_runs.driver import SequentialOptions, run_sequential
from arena.sequential_runs.report import Savings, SequentialReport, sequential_markdown
from arena.sequential_runs.trace import Point, case_order, confidence_trace

__all__ = [
    "Point",
    "Savings",
    "SequentialOptions",
    "SequentialReport",
    "case_order",
    "confidence_trace",
    "run_sequential",
    "sequential_markdown",
]

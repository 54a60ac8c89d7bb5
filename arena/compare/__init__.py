"""Comparisons: is the candidate better, non-inferior, worse or inconclusive against the
baseline (``arena compare``), how many more cases would decide it (power advice), the pairs a
selective judge left undecided, routes through a graph that changed, a run's three answers,
and the sequential drivers over stored runs (:mod:`arena.compare.sequential`).

Public names load lazily (like :mod:`arena`); the sequential drivers are imported by their
own paths, so loading a comparison loads none of them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.compare._answers import Answer, RunAnswers, cheaper_variant, run_answers
    from arena.compare._compare import CompareReport, compare_markdown, compare_variants
    from arena.compare._power import PowerEstimate, power_estimate

_EXPORTS = {
    "Answer": "arena.compare._answers",
    "RunAnswers": "arena.compare._answers",
    "cheaper_variant": "arena.compare._answers",
    "run_answers": "arena.compare._answers",
    "CompareReport": "arena.compare._compare",
    "compare_markdown": "arena.compare._compare",
    "compare_variants": "arena.compare._compare",
    "PowerEstimate": "arena.compare._power",
    "power_estimate": "arena.compare._power",
}

__all__ = [
    "Answer",
    "CompareReport",
    "PowerEstimate",
    "RunAnswers",
    "cheaper_variant",
    "compare_markdown",
    "compare_variants",
    "power_estimate",
    "run_answers",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'arena.compare' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)

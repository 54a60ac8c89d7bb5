"""One judged battle between variants ``x`` and ``y`` on case ``i``, for tests of what is
made of verdicts (calibration, cascades, selective judging, tie margins)."""

from __future__ import annotations

from typing import Any

from judges import JudgeSpec, Verdict
from judges._battle import Battle


def battle(
    i: int,
    judge: JudgeSpec,
    verdict_ab: Verdict | None,
    verdict_ba: Verdict | None,
    *,
    winner: str = "tie",
    case_id: str | None = None,
    **fields: Any,
) -> Battle:
    """Case ``C-{i}`` (or ``case_id``), results ``2 i`` and ``2 i + 1``, both orders' verdicts."""
    return Battle(
        run_id=1,
        case_id=case_id or f"C-{i}",
        variant_a="x",
        variant_b="y",
        hash_a="h",
        hash_b="g",
        result_a_id=2 * i,
        result_b_id=2 * i + 1,
        winner=winner,
        verdict_ab=verdict_ab,
        verdict_ba=verdict_ba,
        judge=judge,
        **fields,
    )

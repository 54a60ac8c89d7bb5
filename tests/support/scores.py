"""Case scores built by hand for the scoring and regression tests."""

from __future__ import annotations

from arena.scoring import CaseScore


def case_score(
    case_id: str,
    passed: bool,
    score: float,
    *,
    category: str = "happy_path",
    tier: str = "standard",
    repeat: int = 0,
    variant: str = "v",
    vh: str = "h1",
    components: dict[str, float] | None = None,
    error: str | None = None,
    fail_reasons: list[str] | None = None,
) -> CaseScore:
    """A case score as the scorer would store it: counted unless its tier is ``pending``."""
    return CaseScore(
        variant=variant,
        variant_hash=vh,
        case_id=case_id,
        category=category,
        tier=tier,
        repeat=repeat,
        counted=tier != "pending",
        score=score,
        passed=passed,
        components=components or {},
        error=error,
        fail_reasons=fail_reasons or [],
    )

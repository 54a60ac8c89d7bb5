"""`arena golden lint`'s run rules on conversation cases: a repeat whose simulated user failed
is not a failed repeat of the case (never makes it look always failing or less than
saturated); it is listed apart."""

from __future__ import annotations

import pytest

from arena.curation._lint import lint_dataset
from arena.golden import GoldenDataset
from arena.scoring import CaseScore

pytestmark = pytest.mark.unit

USER = {"persona": "A cook.", "goal": "Get 2 cups in grams.", "max_turns": 3}


def _dataset() -> GoldenDataset:
    return GoldenDataset.model_validate(
        {
            "name": "dialogues",
            "available_tools": [],
            "test_cases": [
                {
                    "id": case_id,
                    "input": f"Help me convert cups, please ({case_id}).",
                    "category": "multi_step",
                    "tier": "critical",
                    "reference_answer": "About 240 grams.",
                    "conversation": {"user": USER},
                }
                for case_id in ("SAT", "LOST")
            ],
        }
    )


def _score(variant: str, case_id: str, repeat: int, passed: bool, sim: bool) -> CaseScore:
    return CaseScore(
        variant=variant,
        variant_hash=f"h-{variant}",
        case_id=case_id,
        category="multi_step",
        tier="critical",
        repeat=repeat,
        score=1.0 if passed else 0.0,
        passed=passed,
        conversation=True,
        simulator_error="leak: stated its goal verbatim" if sim else None,
    )


def test_simulator_errors_are_not_failed_repeats() -> None:
    scores = [
        # SAT: every agent repeat passes; one repeat of "a" lost its simulated user.
        _score("a", "SAT", 0, True, False),
        _score("a", "SAT", 1, False, True),
        _score("b", "SAT", 0, True, False),
        _score("b", "SAT", 1, True, False),
        # LOST: the simulated user failed on every repeat of every variant.
        *(_score(v, "LOST", r, False, True) for v in ("a", "b") for r in (0, 1)),
    ]
    report = lint_dataset(_dataset(), scores, [1])
    rules = {f.rule: f for f in report.findings}
    assert rules["saturated"].cases == ["SAT"]
    assert "always_fails" not in rules  # LOST never failed: no agent ever got to answer
    assert (rules["simulator_errors"].severity, rules["simulator_errors"].cases) == (
        "info",
        ["LOST", "SAT"],
    )

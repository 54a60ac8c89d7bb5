"""A team's helpdesk agent whose ``reset_password`` raises on every call, run through the real
runner on a scripted model: the recorder keeps the call's error as ``ToolNode`` reported it, and
the case that requires the reset fails, saying why, though the model claims success."""

from __future__ import annotations

from typing import Any

import pytest

from arena.golden._models import GoldenDataset
from arena.models import register_fake
from arena.runner import RunOptions, run_suite
from arena.scoring import score_result
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

CASE: dict[str, Any] = {
    "id": "H-1",
    "input": "Please reset the password of user u-42.",
    "category": "happy_path",
    "tier": "critical",
    "expected_tools": ["reset_password"],
    "expected_args": {"reset_password": {"user_id": "u-42"}},
    "expected_output_contains": ["reset"],
}
DATASET = GoldenDataset.model_validate(
    {"name": "helpdesk", "available_tools": ["reset_password"], "test_cases": [CASE]}
)


def helpdesk_variant(spec: str, **model: Any) -> Variant:
    """The helpdesk agent (tests.examples.helpdesk_agent) on the model ``spec``."""
    return Variant.model_validate(
        {
            "name": "helpdesk",
            "agent": "tests.examples.helpdesk_agent:build",
            "model": {"spec": spec, "temperature": 0, **model},
            "system_prompt": "You are an IT helpdesk agent. Reset passwords with the "
            "reset_password tool, then tell the user it is done.",
            "max_steps": 2,
        }
    )


def test_a_raised_reset_fails_the_case_that_requires_it(db_url: str) -> None:
    register_fake(
        "helpdesk",
        [
            {"tool": "reset_password", "args": {"user_id": "u-42"}},
            "Done: the password of u-42 has been reset.",
        ],
    )
    options = RunOptions(progress=False)
    (result,) = run_suite(
        Store(db_url), DATASET, [helpdesk_variant("fake:helpdesk")], options
    ).results
    assert result.error is None, result.error
    [step] = result.steps
    assert step.tool == "reset_password" and step.error and "KeyError" in step.error
    score = score_result(result, DATASET.case("H-1"))
    assert score.components["output"] == 1.0 and not score.passed
    hard = {r.text: r.kind for r in score.fail_reasons if r.hard}
    assert hard == {
        "reset_password was called but raised KeyError": "trajectory",
        "reset_password was called with the expected arguments but raised KeyError": "trajectory",
    }

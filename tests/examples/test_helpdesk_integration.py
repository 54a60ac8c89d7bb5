"""The helpdesk agent on the real local model, its ``reset_password`` raising ``KeyError`` on
every call (issue 36, finding 1): the model calls the tool, the call raised, and the case that
requires the reset fails ``expected_tools`` and says why, whatever the model answered."""

from __future__ import annotations

import pytest

from arena.runner import RunOptions, run_suite
from arena.scoring import score_result
from arena.storage import Store
from tests.examples.test_helpdesk_required_actions import DATASET, helpdesk_variant

pytestmark = pytest.mark.integration


def test_a_raised_call_fails_expected_tools_on_the_local_model(local_db_url: str) -> None:
    # CI's two cores are shared: a slow reply is no failure of what this test proves
    variant = helpdesk_variant("local:qwen2.5-coder-1.5b", max_tokens=256, timeout=900)
    options = RunOptions(progress=False, case_timeout_s=900)
    (result,) = run_suite(Store(local_db_url), DATASET, [variant], options).results
    assert result.error is None, result.error
    resets = [s for s in result.steps if s.tool == "reset_password"]
    assert resets, f"the model never called reset_password: {result.output!r}"
    assert all(s.error and "KeyError" in s.error for s in resets), [s.error for s in resets]
    score = score_result(result, DATASET.case("H-1"))
    assert not score.passed
    assert score.components["trajectory.selection"] == 0.0
    assert "reset_password was called but raised KeyError" in score.fail_reasons

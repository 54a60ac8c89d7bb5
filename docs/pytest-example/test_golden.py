"""The golden set as pytest tests: one test per case, the regression gate's rules as asserts.

Copy this file and conftest.py into your repository's tests. Configure with environment
variables (or edit the defaults):

  ARENA_DATASET  golden dataset JSON        ARENA_VARIANT  variant YAML
  ARENA_TIER     critical|standard|pending|all (default critical)
  ARENA_DB_URL   a database for the response cache (reruns send no request)
  ARENA_GRADER   a judge spec grading behaviours and rubrics (default: keyword rules)

With LangSmith's pytest plugin active and LANGSMITH_API_KEY set, every case is also recorded
in LangSmith (inputs, reference outputs, outputs, golden scores as feedback).
"""

from __future__ import annotations

import os

import pytest

from arena.langsmith import GoldenSuite

SUITE = GoldenSuite(
    dataset=os.environ.get("ARENA_DATASET", "data/golden/research_agent.json"),
    variant=os.environ.get("ARENA_VARIANT", "data/variants/baseline.yaml"),
    tier=os.environ.get("ARENA_TIER", "critical"),
    db=os.environ.get("ARENA_DB_URL"),
    grader=os.environ.get("ARENA_GRADER"),
)


@pytest.mark.parametrize("case_id", SUITE.params())
def test_golden_case(case_id: str) -> None:
    case = SUITE.case(case_id)
    result = SUITE.run(case)
    score = SUITE.score(result, case)
    SUITE.log(case, result, score)  # to LangSmith when the plugin is on, else nothing
    SUITE.check(score, case)

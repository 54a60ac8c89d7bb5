"""Run a golden set as pytest tests in your own repository, with or without LangSmith.

``GoldenSuite`` gives one parametrized test per case; each runs the variant's agent, scores
the answer like ``arena score`` and asserts the regression gate's per-case rules:

* a run that errored fails the test;
* a **critical** case must pass; a **happy-path** case must pass;
* any other counted case that fails is a :class:`GoldenCaseWarning` (it only moves the suite
  score, which ``arena check`` gates against a baseline);
* a **pending** case is expected to fail (``xfail``): shown, never counted.

When LangSmith's pytest plugin is active and ``LANGSMITH_API_KEY`` is set,
:func:`mark_langsmith_items` (call it from ``pytest_collection_modifyitems``) marks the tests
``@pytest.mark.langsmith`` and :meth:`GoldenSuite.log` records each case's inputs, reference
outputs, outputs and golden scores as feedback; otherwise both do nothing. A working example
is the pytest plugin, ``pytest --arena`` (:mod:`arena.pytest_plugin`).
"""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.golden import GoldenCase, GoldenDataset, load_dataset
from arena.golden._models import Category, Tier
from arena.langsmith._client import langsmith_configured
from arena.langsmith._evaluators import outputs_from_result
from arena.langsmith._examples import case_to_example

if TYPE_CHECKING:
    import pytest

    from arena.records.results import RunResult
    from arena.scoring import CaseScore

PLUGIN = "langsmith_plugin"


class GoldenCaseWarning(UserWarning):
    """A counted case that failed without breaking a per-case gate rule."""


def gate_failures(score: CaseScore, case: GoldenCase) -> list[str]:
    """The gate's per-case rules this score breaks (empty when the test should pass)."""
    if score.passed or case.tier == Tier.PENDING:
        return []
    why = "; ".join(score.fail_reasons) or f"score {score.score:.2f}"
    if score.error:
        return [f"{case.id}: the run errored: {score.error}"]
    rules = []
    if case.tier == Tier.CRITICAL:
        rules.append(f"critical case {case.id} fails: {why}")
    if case.category == Category.HAPPY_PATH:
        rules.append(f"happy-path case {case.id} fails: {why}")
    return rules


def langsmith_active(config: pytest.Config) -> bool:
    """LangSmith's pytest plugin is loaded and LangSmith is configured."""
    return config.pluginmanager.has_plugin(PLUGIN) and langsmith_configured()


def mark_langsmith_items(
    config: pytest.Config, items: list[pytest.Item], test_name: str = "test_golden_case"
) -> None:
    """Mark the golden tests ``langsmith`` when :func:`langsmith_active` (else nothing)."""
    import pytest

    if not langsmith_active(config):
        return
    for item in items:
        if getattr(item, "originalname", item.name) == test_name:
            item.add_marker(pytest.mark.langsmith)


class GoldenSuite:
    """A golden dataset and one variant, as pytest parameters, runs and assertions."""

    def __init__(
        self,
        dataset: str | Path,
        variant: str | Path,
        *,
        tier: str = "all",
        db: str | None = None,
        grader: str | None = None,
        timeout_s: float = 600.0,
    ) -> None:
        from arena.langsmith._target import AgentTarget
        from arena.runner import select_cases

        self.dataset = load_dataset(dataset)
        self.cases = select_cases(self.dataset, tier)
        self.store: Any = None
        if db:
            from arena.storage import Store

            self.store = Store(db)
        self.target = AgentTarget(variant, store=self.store, timeout_s=timeout_s)
        self.grader_spec = grader

    def params(self) -> list[Any]:
        """One ``pytest.param`` per case id (the test's LangSmith input); pending cases are
        marked ``xfail``."""
        import pytest

        return [
            pytest.param(
                case.id,
                id=case.id,
                marks=[pytest.mark.xfail(reason="pending case: shown, never counted", strict=False)]
                if case.tier == Tier.PENDING
                else [],
            )
            for case in self.cases
        ]

    def case(self, case_id: str) -> GoldenCase:
        """The case with this id."""
        return self.dataset.case(case_id)

    def run(self, case: GoldenCase) -> RunResult:
        """Run the variant's agent on the case (cached answers when ``db`` is given)."""
        return self.target.run_case(case)

    def score(self, result: RunResult, case: GoldenCase) -> CaseScore:
        """Score like ``arena score`` (keyword rules, or the ``grader`` judge spec)."""
        from arena.scoring import score_results

        grader = None
        if self.grader_spec:
            from arena.evaluation.run_scores import make_grader
            from arena.storage import Store

            if self.store is None:
                self.store = Store("sqlite://")  # an in-memory cache of the grader's replies
            grader = make_grader(self.grader_spec, self.store)
        tools = set(self.dataset.available_tools)
        return asyncio.run(score_results([(result, case)], grader, available_tools=tools))[0]

    def check(self, score: CaseScore, case: GoldenCase) -> None:
        """Assert the gate's per-case rules (see the module docstring)."""
        if case.tier == Tier.PENDING:
            if not score.passed:  # expected: the test is marked xfail
                raise AssertionError("pending case fails: " + "; ".join(score.fail_reasons))
            return
        failures = gate_failures(score, case)
        if failures:
            raise AssertionError("\n".join(failures))
        if not score.passed:
            warnings.warn(
                GoldenCaseWarning(
                    f"{case.tier.value} case {case.id} fails: " + "; ".join(score.fail_reasons)
                ),
                stacklevel=2,
            )

    def log(self, case: GoldenCase, result: RunResult, score: CaseScore) -> bool:
        """Send the case to LangSmith when the test runs as a LangSmith test (the plugin
        active, the test marked); True if it was sent, False (and nothing done) otherwise.
        """
        return log_case(self.dataset, case, result, score)


def log_case(dataset: GoldenDataset, case: GoldenCase, result: RunResult, score: CaseScore) -> bool:
    """Record one case in LangSmith when it runs as a LangSmith test (inputs, reference
    outputs, outputs, golden scores as feedback); False, and nothing done, otherwise."""
    from langsmith import testing as t
    from langsmith.run_helpers import get_current_run_tree

    if get_current_run_tree() is None:
        return False
    example = case_to_example(case, dataset)
    try:
        t.log_inputs(example["inputs"])
    except ValueError:  # traced, but not inside a LangSmith test
        return False
    t.log_reference_outputs(example["outputs"])
    t.log_outputs(outputs_from_result(result))
    t.log_feedback(key="golden_score", score=score.score)
    t.log_feedback(key="golden_pass", score=float(score.passed))
    for name, value in score.components.items():
        if "." not in name:
            t.log_feedback(key=f"golden_{name}", score=value)
    return True

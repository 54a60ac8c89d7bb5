"""The golden dataset as pytest items: one per case, named by its id."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from arena.golden import GoldenCase
    from arena.pytest_plugin._session import ArenaSession
    from arena.scoring import CaseScore

SESSION: pytest.StashKey[ArenaSession] = pytest.StashKey()
"""Where a session's :class:`ArenaSession` is kept on the pytest config."""


class GoldenCaseFailure(AssertionError):
    """A golden case broke one of the gate's per-case rules (shown without a traceback)."""


class GoldenFile(pytest.File):
    """The dataset file: collects one :class:`GoldenItem` per case of the selected tier."""

    def collect(self) -> Any:
        """One item per case, in the dataset's order."""
        arena = self.config.stash[SESSION]
        for case in arena.cases:
            yield GoldenItem.from_parent(self, name=case.id, case=case)


class GoldenItem(pytest.Item):
    """One golden case: run (or reuse) its repeats, score them, assert the per-case rules."""

    def __init__(self, *, case: GoldenCase, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from arena.golden._models import Tier

        self.case = case
        if case.tier == Tier.PENDING:
            self.add_marker(pytest.mark.xfail(reason="pending case: shown, never counted"))
        self.obj = _body(self)

    def runtest(self) -> None:
        """Run the case through LangSmith's test decorator when its plugin wrapped ``obj``."""
        self.obj(case_id=self.case.id)

    def check(self) -> None:
        """Run, score and assert (what ``obj`` does)."""
        from arena.langsmith._testing import GoldenCaseWarning

        arena = self.config.stash[SESSION]
        results = arena.run_case(self.case.id)
        scores = arena.score(results, self.case)
        if results:
            arena.log_langsmith(self.case, results[-1], scores[-1])
        failures = case_failures(scores, self.case)
        if failures:
            raise GoldenCaseFailure("\n".join(failures))
        failed = [s for s in scores if not s.passed]
        if failed and not _pending(self.case):
            reasons = "; ".join(failed[0].fail_reasons) or f"score {failed[0].score:.2f}"
            message = f"{self.case.tier.value} case {self.case.id} fails: {reasons}"
            warnings.warn_explicit(  # shown at the dataset, not in the plugin's code
                GoldenCaseWarning(message), GoldenCaseWarning, str(self.path), 1
            )

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        """The broken rules in words (no traceback of the plugin's own code)."""
        if isinstance(excinfo.value, GoldenCaseFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        """Where the case is: the dataset file and the case id."""
        return self.path, None, f"golden case {self.case.id}"


def _pending(case: GoldenCase) -> bool:
    from arena.golden._models import Tier

    return bool(case.tier == Tier.PENDING)


def _body(item: GoldenItem) -> Any:
    def test_golden_case(case_id: str) -> None:  # the case id: LangSmith's example input
        assert case_id == item.case.id
        item.check()

    return test_golden_case


def case_failures(scores: list[CaseScore], case: GoldenCase) -> list[str]:
    """The per-case rules the case's runs break (every run must keep them: pass^k)."""
    from arena.langsmith._testing import gate_failures

    if _pending(case):
        if any(not s.passed for s in scores):
            failed = next(s for s in scores if not s.passed)
            return ["pending case fails: " + "; ".join(failed.fail_reasons)]
        return []
    broken = [(s, gate_failures(s, case)) for s in scores]
    failing = [(s, f) for s, f in broken if f]
    if not failing:
        return []
    lines = list(failing[0][1])
    if len(scores) > 1:
        kept = len(scores) - len(failing)
        lines.append(f"pass^{len(scores)}: {kept} of {len(scores)} runs passed")
    return lines

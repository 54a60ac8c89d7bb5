"""`arena mutate`'s text shows the mutation score as the rest of the CLI and the app show rates
(``arena.display``: one decimal, a half rounded up, the counts beside it), never rounded to a
whole percent: 10 of 16 is 62.5% (was 62%), 2 of 3 is 66.7% (was 67%)."""

from __future__ import annotations

from typing import Any

import pytest

from arena.display import percent
from arena.mutation import MutantResult, MutationReport, mutation_lines, mutation_markdown

pytestmark = pytest.mark.unit


def _report(killed: int, survived: int) -> MutationReport:
    mutants = [
        MutantResult(id=f"op:t{i}", operator="op", target=f"t{i}", killed=i < killed)
        for i in range(killed + survived)
    ]
    return MutationReport(score=killed / (killed + survived), mutants=mutants, dataset="d")


@pytest.mark.parametrize(("killed", "survived", "shown"), [(10, 6, "62.5%"), (2, 1, "66.7%")])
def test_the_report_shows_the_score_as_display_does(killed: int, survived: int, shown: str) -> None:
    report = _report(killed, survived)
    assert percent(report.score) == shown
    first = mutation_markdown(report).splitlines()[0]
    assert first == f"# Mutation score: {shown} ({killed} of {killed + survived} mutants killed)"


def test_health_shows_the_stored_score_with_its_counts() -> None:
    summary: dict[str, Any] = {
        "score": 2 / 3,
        "variant": "baseline",
        "created_at": "2026-12-06T10:00:00",
        "mutants": 4,
        "killed": 2,
        "counted": 3,
        "survivors": [{"id": "op:t2", "why_survived": "no case calls it"}],
    }
    assert mutation_lines(summary, "desk")[0] == (
        "mutation score of desk: 66.7%, 2 of 3 mutants killed (baseline, 2026-12-06; "
        "1 survivor of 4 mutants)"
    )

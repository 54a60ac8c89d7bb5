"""The sequential compare stops for futility through the driver: equal variants whose cases
split evenly end early, undecided, saying more cases would not settle it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from arena import SequentialOptions, run_sequential
from arena.golden import GoldenDataset
from arena.models import register_fake
from arena.runner import RunOptions
from arena.storage import Store
from arena.variants.variant import Variant
from judges import parse_judge

pytestmark = pytest.mark.unit
CASES = 80


def _judge(messages: list[Any]) -> str:
    """Paris wins the even questions, Lyon the odd ones: equal variants, noisy outcomes."""
    text = str(messages[-1].content)
    number = int(re.search(r"\((\d+)\)", text).group(1))  # type: ignore[union-attr]
    favourite = "Paris" if number % 2 == 0 else "Lyon"
    first = text.split("Answer B:")[0]
    return "[[A>B]]" if favourite in first.split("Answer A:")[-1] else "[[B>A]]"


def _variant(name: str) -> Variant:
    spec = {"name": name, "model": {"spec": f"fake:fut-{name}"}, "tools": []}
    return Variant.model_validate(spec)


@pytest.mark.system  # runs and judges tens of scripted cases: seconds
def test_equal_variants_stop_early_for_futility(tmp_path: Path) -> None:
    register_fake("fut-base", [lambda messages: "Paris"], cycle=True)
    register_fake("fut-cand", [lambda messages: "Lyon"], cycle=True)
    register_fake("fut-judge", [_judge], cycle=True)
    dataset = GoldenDataset.model_validate(
        {
            "name": "capitals",
            "available_tools": [],
            "test_cases": [
                {"id": f"Q-{i}", "input": f"Capital? ({i})", "category": "happy_path"}
                for i in range(CASES)
            ],
        }
    )
    report = run_sequential(
        Store(f"sqlite:///{tmp_path / 'arena.db'}"),
        dataset,
        baseline=_variant("base"),
        candidate=_variant("cand"),
        judge=parse_judge("fake:fut-judge/text"),
        run=RunOptions(progress=False),
        options=SequentialOptions(margin=0.05),
    )
    assert report.decision == "undecided" and report.cases_used < CASES
    assert report.stopped_because.startswith("undecided: more cases would not settle it")
    assert {p.outcome for p in report.trace} == {0.0, 1.0}  # the judge did split the cases

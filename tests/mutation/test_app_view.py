"""The app shows the dataset's latest mutation score and its survivors (AppTest, in-process,
the desk team's scripted models)."""

from __future__ import annotations

import pytest

from arena.golden import GoldenDataset
from arena.mutation import MutationOptions, run_mutation
from arena.storage import Store
from arena.variants.variant import Variant

pytestmark = pytest.mark.system


def _section(url: str, dataset: str) -> None:
    from arena.app.mutation_view import mutation_section

    mutation_section(url, dataset)


def test_the_app_shows_the_latest_score_and_survivors(
    desk: tuple[Variant, GoldenDataset], db_url: str
) -> None:
    from streamlit.testing.v1 import AppTest

    variant, dataset = desk
    store = Store(db_url)
    run_mutation(store, dataset, variant, MutationOptions(operators=["tool_raises"]))
    [run] = [r for r in store.runs() if r.id == 1]  # the original's run, as the sidebar has it

    at = AppTest.from_function(_section, args=(db_url, run.dataset), default_timeout=60)
    at.run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    assert [m.value for m in at.metric] == ["66.7%"]
    [table] = [frame.value for frame in at.dataframe]
    assert list(table["Mutant"]) == ["tool_raises:check_status"]
    assert table["Why it survived"].iloc[0].startswith("no case calls `check_status`")

    empty = AppTest.from_function(_section, args=(db_url, "another"), default_timeout=60)
    empty.run(timeout=60)
    assert "No mutation pass of another yet" in empty.info[0].value

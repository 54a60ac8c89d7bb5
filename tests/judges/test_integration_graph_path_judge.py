"""The real local model judges a pair of LangGraph answers with their paths shown: the
longer prompts are read (no error, both grades in range) and a rerun asks nothing."""

from __future__ import annotations

import pytest

from arena.battles import judge_request, judge_run
from arena.storage import Store
from arena.trust import PairId
from judges import get_mode, parse_judge
from tests.judges.graph_pairs import desk_run

pytestmark = pytest.mark.integration


def test_the_local_model_grades_answers_with_their_paths(local_db_url: str) -> None:
    store = Store(local_db_url)
    run_id = desk_run(store)  # the agents are scripted: only the judge is the real model
    spec = parse_judge("local:qwen2.5-coder-1.5b/grades").model_copy(
        update={"with_graph_path": True}
    )
    repeat = next(r.repeat for r in store.results(run_id) if r.case_id == "S-3")
    only = {PairId.of(None, "S-3", repeat, "desk", "desk-strict")}  # the fewest calls
    judged = judge_run(store, run_id, spec, only=only, progress=False, concurrency=1)
    (battle,) = [
        b
        for b in judged.battles
        if (b.case_id, b.variant_a, b.variant_b) == ("S-3", "desk", "desk-strict")
    ]
    assert battle.verdict_ab is not None and battle.verdict_ab.ok, battle.verdict_ab
    assert battle.p_a is not None and 0.0 <= battle.p_a <= 1.0
    results = {(r.case_id, r.variant): r for r in store.results(run_id)}
    case = store.run_dataset(run_id).case("S-3")
    request = judge_request(spec, case, results[("S-3", "desk")], results[("S-3", "desk-strict")])
    # Each grade's question (its last message; the system rule names the tag too) shows a path.
    asked = [str(c[-1].content) for c in get_mode("grades").conversations(request)]
    assert len(asked) == 2 and all("</path-" in text for text in asked)
    assert judge_run(store, run_id, spec, only=only, progress=False).model_calls == 0

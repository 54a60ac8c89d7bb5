"""The real local model judges one open-ended pair of the shipped human-preference set with
the default judge: the case has no golden items, so ``auto`` picks the open-ended mode, the
verdict records the choice, and the run agrees with the people's vote file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.outputs import load_preference_set
from arena.storage import Store
from judges.modes._auto import OPEN_ENDED_MODE

pytestmark = pytest.mark.integration


def test_an_open_ended_pair_is_judged_in_the_open_ended_mode(
    local_db_url: str, tmp_path: Path
) -> None:
    shipped = load_preference_set()
    # natural-003: two short answers to one question, people preferred side 1.
    pair = next(p for p in shipped.pairs if p.id == "natural-003")
    paths = []
    for side, model in enumerate(shipped.models, 1):
        answer = pair.answer_1 if side == 1 else pair.answer_2
        row = {"question_id": pair.id, "question": pair.question, "answer": answer}
        path = tmp_path / f"side-{side}.jsonl"
        path.write_text(json.dumps({**row, "model": model}) + "\n")
        paths.append(str(path))
    assert main(["judge", "--outputs", *paths, "--db", local_db_url]) == 0  # default judge
    store = Store(local_db_url)
    battles = store.battles(store.run().id)
    assert len(battles) == 1 and battles[0].winner != "error"
    battle = battles[0]
    assert battle.judge.mode == "auto" and battle.p_a is not None and 0 < battle.p_a < 1
    for verdict in (battle.verdict_ab, battle.verdict_ba):
        assert verdict is not None and verdict.ok
        assert verdict.details["mode"] == OPEN_ENDED_MODE
        assert verdict.details["chosen_for"] == "open-ended"

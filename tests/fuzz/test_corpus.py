"""The worst hostile inputs found so far, kept as regression rows (``corpus.jsonl``).

Each row names a reader or scorer, the input (``parts``: ``[text, times]`` pieces, so a
100,000-level nesting stays a short line), what must happen (``refused`` with ``message`` in
the error, ``parses``, ``either``, or ``no_match`` for a matcher) and why it is here. Every
row runs under the hard time bound. Add a row whenever fuzzing or a user finds a new one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.battle_log.reader import load_battle_log
from arena.errors import InputError
from arena.golden import load_dataset
from arena.langsmith._files import read_examples
from arena.project._config import load_config
from arena.scoring._behavior import TRACEBACK
from arena.scoring._output import score_regex
from arena.scoring._textmatch import find_item
from arena.trust import load_votes
from arena.variants.variant import load_variant
from judges import parse_judge
from judges._parsing import parse_verdict
from tests.support.time_limit import time_limit

pytestmark = pytest.mark.system  # seconds in all: kept out of `-m unit`

CORPUS = Path(__file__).with_name("corpus.jsonl")
ROWS = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line]
BOUND_S = 20.0

FILE_READERS: dict[str, tuple[str, Callable[[Path], Any]]] = {
    "battle_log": ("log.jsonl", load_battle_log),
    "votes": ("votes.jsonl", load_votes),
    "golden": ("golden.json", load_dataset),
    "variant": ("variant.yaml", load_variant),
    "gate_config": ("arena.yaml", load_config),
    "judge": ("judge.yaml", lambda path: parse_judge(str(path))),
    "examples_csv": ("examples.csv", read_examples),
}


def _text(row: dict[str, Any]) -> str:
    return "".join(piece * times for piece, times in row["parts"])


def _matches(row: dict[str, Any], text: str) -> bool:
    if row["reader"] == "regex":
        return score_regex(text, row["pattern"]).passed
    if row["reader"] == "traceback":
        return TRACEBACK.search(text) is not None
    if row["reader"] == "verdict":
        return parse_verdict(text) is not None
    return find_item(text, row["item"]) is not None


def test_the_corpus_is_well_formed() -> None:
    assert len({row["id"] for row in ROWS}) == len(ROWS) >= 20
    for row in ROWS:
        assert row["expect"] in ("refused", "parses", "either", "no_match"), row["id"]
        assert row["reader"] in (*FILE_READERS, "regex", "traceback", "verdict", "contains")


@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_corpus_row(row: dict[str, Any], tmp_path: Path) -> None:
    text = _text(row)
    if row["reader"] not in FILE_READERS:
        with time_limit(BOUND_S):
            assert _matches(row, text) is (row["expect"] != "no_match")
        return
    name, read = FILE_READERS[row["reader"]]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with time_limit(BOUND_S):
        try:
            read(path)
        except InputError as exc:
            assert row["expect"] in ("refused", "either"), f"{row['id']}: {exc}"
            assert row["message"] in str(exc) and str(path) in str(exc)
            return
    assert row["expect"] in ("parses", "either"), f"{row['id']} was not refused"

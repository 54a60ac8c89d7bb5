"""``arena battles export [RUN] [--judge-key KEY] [--orders]``: a run's battles in Chatbot Arena's
schema (combined verdicts or both orders as the judge saw them), read back by ``arena agree``
and ``arena ratings --battles``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from arena.battles import judge_run
from arena.cli import main
from arena.models import register_fake
from arena.storage import Store
from arena.votes import cast_vote, next_pair
from judges import human_judge
from tests.battles.test_judges import _prefers_300, _run, _spec

pytestmark = pytest.mark.unit

SCHEMA = {"question_id", "model_a", "model_b", "winner", "judge", "turn", "tstamp"}


def _rows(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def test_export_combined_and_per_order(
    store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = _run(store)
    register_fake("judge", [_prefers_300], cycle=True)
    judge_run(store, run_id, _spec(), progress=False)
    assert main(["battles", "export", "--db", db_url]) == 0  # latest run and judge, stdout
    combined = _rows(capsys.readouterr().out)
    assert len(combined) == 12 and all(set(r) >= SCHEMA for r in combined)
    assert {r["judge"] for r in combined} == {_spec().key}
    assert {r["turn"] for r in combined} == {1}
    good_bad = [r for r in combined if (r["model_a"], r["model_b"]) == ("good", "bad")]
    assert len(good_bad) == 4 and {r["winner"] for r in good_bad} == {"model_a"}

    out = tmp_path / "orders.jsonl"
    assert (
        main(
            [
                "battles",
                "export",
                str(run_id),
                "--judge",
                _spec().key,
                "--orders",
                "-o",
                str(out),
                "--db",
                db_url,
            ]
        )
        == 0
    )
    assert "wrote 20 battles" in capsys.readouterr().out
    orders = _rows(out.read_text())
    # 8 judged battles in both orders, 4 identical-answer ties once each.
    shown = [(r["model_a"], r["model_b"], r["winner"]) for r in orders if r["question_id"] == "C-0"]
    assert sorted(shown) == sorted(
        [
            ("good", "bad", "model_a"),
            ("bad", "good", "model_b"),
            ("bad", "same", "model_b"),
            ("same", "bad", "model_a"),
            ("good", "same", "tie"),
        ]
    )
    assert main(["ratings", "--battles", str(out), "--json", "--bootstrap", "20"]) == 0
    assert {r["model"] for r in json.loads(capsys.readouterr().out)} == {"good", "bad", "same"}
    assert main(["battles", "export", "7", "--db", db_url]) == 2
    assert main(["battles", "export", "x.jsonl", "-o", "y.jsonl", "--db", db_url]) == 2


def test_exported_judge_and_human_votes_meet_in_arena_agree(
    store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = _run(store)
    register_fake("judge", [_prefers_300], cycle=True)
    judge_run(store, run_id, _spec(), progress=False)
    rng = random.Random(3)
    for voter in ("ann", "bob"):
        while (pair := next_pair(store, run_id, voter, rng)) is not None:
            says_300 = "300" in pair.answer_a
            cast_vote(store, pair, voter, "model_a" if says_300 == (voter == "ann") else "model_b")
    llm, people = tmp_path / "llm.jsonl", tmp_path / "ann.jsonl"
    assert main(["battles", "export", "-o", str(llm), "--db", db_url]) == 0
    capsys.readouterr()
    for voter in ("ann", "bob"):
        assert main(["battles", "export", "--judge", human_judge(voter).key, "--db", db_url]) == 0
        with people.open("a") as fh:
            fh.write(capsys.readouterr().out)
    assert {r["judge"] for r in _rows(people.read_text())} == {"human:ann", "human:bob"}
    capsys.readouterr()
    assert main(["agree", str(llm), str(people), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["left"], row["right"]) == (_spec().key, "human")
    # ann agrees on her 8 votes, bob disagrees on his 8.
    assert (row["agree_with_ties"], row["with_ties"]["n"]) == (8, 16)
    assert main(["agree", str(people), "--json"]) == 0
    (within,) = json.loads(capsys.readouterr().out)
    assert (
        within["left"],
        within["right"],
        within["agree_with_ties"],
        within["with_ties"]["n"],
    ) == ("human", "human", 0, 8)

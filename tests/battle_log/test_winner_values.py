"""Winner values real judgment files carry, read as their writers mean them and counted:
FastChat's MT-Bench files (``tie (inconsistent)``, ``inconsistent``, ``error``, ``model_1`` /
``model_2`` and the ``g1_winner``/``g2_winner`` pair form), the public Chatbot Arena dumps
(``tie (bothbad)``), arena-hard's battles (``model_a``/``model_b``/``tie``). Only truly unknown
values are refused, naming the line and the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena.battle_log.options import LogCounts
from arena.battle_log.reader import load_battle_log
from arena.cli import main
from arena.errors import InputError
from arena.records.log_rows import WinnerCounts
from arena.trust import load_votes

pytestmark = pytest.mark.unit


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _vote(q: int, winner: str, judge: Any = "gpt4-pair", **extra: Any) -> dict[str, Any]:
    return {
        "question_id": q,
        "model_a": "x",
        "model_b": "y",
        "winner": winner,
        "judge": judge,
        **extra,
    }


def test_agree_reads_mt_bench_gpt4_pair_judgments_past_an_inconsistent_tie(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The released gpt4_pair split writes "tie (inconsistent)" when the two orders disagree;
    # `arena agree` stopped at the first such line.
    judge = ["gpt-4", "pair-v2"]
    gpt4 = _write(
        tmp_path / "gpt4.jsonl",
        [
            _vote(1, "tie (inconsistent)", judge),
            _vote(2, "model_a", judge),
            _vote(3, "model_b", judge),
            _vote(4, "error", judge),
        ],
    )
    human = _write(
        tmp_path / "human.jsonl",
        [
            _vote(q, w, "expert_1")
            for q, w in ((1, "tie"), (2, "model_a"), (3, "model_a"), (4, "tie"))
        ],
    )
    assert main(["agree", str(gpt4), str(human), "--json"]) == 0
    out, err = capsys.readouterr()
    (row,) = json.loads(out)  # one turn: one row
    assert row["with_ties"]["n"] == 3  # the error row is left out, as FastChat does
    assert row["agree_with_ties"] == 2  # the inconsistent verdict is a tie, agreeing with "tie"
    assert "1 inconsistent verdict (the judge's two orders disagreed) read as ties" in err
    assert "1 row with winner 'error' (no verdict) left out" in err


@pytest.fixture
def pair_file(tmp_path: Path) -> Path:
    common = {"model_1": "x", "model_2": "y", "judge": ["gpt-4", "pair-v2"]}
    orders = [
        ("model_1", "model_1"),
        ("model_1", "model_2"),
        ("tie", "error"),
        ("model_2", "model_2"),
    ]
    return _write(
        tmp_path / "gpt-4_pair.jsonl",
        [
            {"question_id": q, **common, "g1_winner": g1, "g2_winner": g2, "turn": 1}
            for q, (g1, g2) in enumerate(orders, 1)
        ],
    )


def test_fastchat_pair_files_are_read_as_fastchat_reads_them(pair_file: Path) -> None:
    counts = WinnerCounts()
    votes = load_votes(pair_file, counts=counts)
    assert [(v.question_id, v.winner, v.judge) for v in votes] == [
        ("1", "model_a", "gpt-4/pair-v2"),
        ("2", "tie", "gpt-4/pair-v2"),  # the orders disagree: inconsistent, a tie
        ("4", "model_b", "gpt-4/pair-v2"),
    ]
    assert (counts.inconsistent, counts.errors) == (1, 1)


def test_ratings_read_inconsistent_ties_as_ties_and_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = [_vote(q, w) for q, w in enumerate(["model_a", "model_b", "tie (bothbad)", "model_a"])]
    written = _write(
        tmp_path / "w.jsonl", [*base, _vote(9, "tie (inconsistent)"), _vote(10, "error")]
    )
    plain = _write(tmp_path / "p.jsonl", [*base, _vote(9, "tie")])
    counts = LogCounts()
    got, want = load_battle_log(written, counts=counts), load_battle_log(plain)
    assert np.array_equal(got.outcome, want.outcome) and got.models == want.models
    assert "1 inconsistent verdict" in counts.summary() and "'error'" in counts.summary()
    assert main(["ratings", "--battles", str(written)]) == 0
    assert "1 inconsistent verdict" in capsys.readouterr().err


@pytest.mark.parametrize("winner", ["draw", "A>B", "Model_A", "tie(bothbad)"])
def test_only_truly_unknown_winners_are_refused(tmp_path: Path, winner: str) -> None:
    path = _write(tmp_path / "v.jsonl", [_vote(1, "model_a"), _vote(2, winner)])
    for read in (load_votes, load_battle_log):
        with pytest.raises(InputError, match="winner must be one of") as info:
            read(path)
        assert info.value.field == "winner" and info.value.case in ("line 2", "row 2")


def test_a_bad_order_verdict_names_its_field(tmp_path: Path) -> None:
    row = {
        "question_id": 1,
        "model_1": "x",
        "model_2": "y",
        "g1_winner": "A",
        "g2_winner": "tie",
        "judge": "j",
    }
    path = _write(tmp_path / "v.jsonl", [row])
    with pytest.raises(InputError) as info:
        load_votes(path)
    assert (info.value.case, info.value.field) == ("line 1", "g1_winner")

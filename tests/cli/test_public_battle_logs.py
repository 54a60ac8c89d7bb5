"""Real public battle logs rate cleanly (self-battles skipped and counted, ``tie (bothbad)``,
rows without ``question_id``, extra fields), with a row filter, arena-hard's strong-verdict
weights and scores against an anchor; and ``arena battles export`` in Chatbot Arena's schema."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from arena.battle_log.options import LogCounts, parse_where
from arena.battle_log.reader import load_battle_log
from arena.cli import main
from arena.errors import InputError

pytestmark = pytest.mark.unit


def _public_log(tmp_path: Path) -> Path:
    """Shaped like lmsys' public arena dumps and arena-hard judgments."""
    rows: list[dict[str, Any]] = []
    for i in range(30):
        rows.append(
            {
                "question_id": f"q{i}",
                "model_a": "gpt-4",
                "model_b": "llama",
                "winner": "model_a" if i % 3 else "model_b",
                "judge": f"arena_user_{i}",
                "turn": 1,
                "anony": i % 2 == 0,
                "language": "English",
                "tstamp": 1.7e9 + i,
                "conv_metadata": {"sum_user_tokens": 10},
            }
        )
        rows.append(
            {
                "question_id": f"q{i}",
                "model_a": "llama",
                "model_b": "vicuna",
                "winner": "tie (bothbad)" if i % 5 == 0 else "model_a",
                "anony": True,
            }
        )
    for i in range(6):  # arena-hard's baseline judged against its own answers
        rows.append(
            {
                "question_id": f"q{i}",
                "model_a": "gpt-4",
                "model_b": "gpt-4",
                "winner": "tie",
                "anony": True,
            }
        )
    for _ in range(4):  # rows without a question id
        rows.append({"model_a": "vicuna", "model_b": "gpt-4", "winner": "model_b"})
    path = tmp_path / "public.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    return path


def test_a_public_log_rates_cleanly_and_says_what_it_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _public_log(tmp_path)
    counts = LogCounts()
    battles = load_battle_log(log, counts=counts)
    assert len(battles) == 64 and counts.self_battles == 6 and counts.rows == 70
    assert battles.models == ("gpt-4", "llama", "vicuna")
    assert main(["ratings", "--battles", str(log), "--json", "--bootstrap", "50"]) == 0
    out = capsys.readouterr()
    rows = {r["model"]: r for r in json.loads(out.out)}
    assert rows["gpt-4"]["battles"] == 34 and rows["llama"]["ties"] == 6
    assert "6 self-battles (a model against itself) skipped" in out.err


def test_where_keeps_only_matching_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _public_log(tmp_path)
    counts = LogCounts()
    battles = load_battle_log(log, where=parse_where(["anony=true"]), counts=counts)
    # 15 anonymous gpt-4 rows, 30 llama-vicuna rows (the self-battles are anonymous too).
    assert len(battles) == 45 and counts.filtered == 19 and counts.self_battles == 6
    both = parse_where(["anony=true", "language=English"])
    assert len(load_battle_log(log, where=both)) == 15
    assert (
        main(
            [
                "ratings",
                "--battles",
                str(log),
                "--where",
                "anony=true",
                "--json",
                "--bootstrap",
                "20",
            ]
        )
        == 0
    )
    out = capsys.readouterr()
    assert {r["model"]: r["battles"] for r in json.loads(out.out)}["gpt-4"] == 15
    assert "19 of 70 rows left out by --where" in out.err
    assert main(["ratings", "--battles", str(log), "--where", "anony"]) == 2
    assert "--where: expected FIELD=VALUE" in capsys.readouterr().err
    with pytest.raises(InputError, match="no battles in the file: 70 of 70 rows left out"):
        load_battle_log(log, where=parse_where(["language=French"]))


def test_strong_verdicts_weigh_three_battles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        {"question_id": "q1", "model_a": "x", "model_b": "y", "winner": "model_a", "strong": True},
        {"question_id": "q2", "model_a": "x", "model_b": "y", "winner": "model_b", "score": "B>A"},
        {"question_id": "q3", "model_a": "y", "model_b": "x", "winner": "model_a", "score": "A>>B"},
    ]
    log = tmp_path / "hard.jsonl"
    log.write_text("\n".join(json.dumps(r) for r in rows))
    counts = LogCounts()
    weighted = load_battle_log(log, strong_weight=3.0, counts=counts)
    assert weighted.weight.tolist() == [3.0, 1.0, 3.0] and counts.strong == 2
    assert load_battle_log(log).weight.tolist() == [1.0, 1.0, 1.0]
    assert (
        main(
            [
                "ratings",
                "--battles",
                str(log),
                "--strong-weight",
                "--json",
                "--bootstrap",
                "20",
                "--reg",
                "1e-9",
            ]
        )
        == 0
    )
    rated = {r["model"]: r for r in json.loads(capsys.readouterr().out)}
    # x won 3 of 7 weighted battles, y 4 of 7: 400 log10(4/3) Elo apart (no prior to speak of).
    gap = rated["y"]["rating"] - rated["x"]["rating"]
    assert gap == pytest.approx(400 * math.log10(4 / 3), abs=0.5)


def test_anchor_scores_are_win_probabilities_against_the_anchor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _public_log(tmp_path)
    assert (
        main(
            ["ratings", "--battles", str(log), "--anchor", "llama", "--json", "--bootstrap", "100"]
        )
        == 0
    )
    rows = {r["model"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["llama"]["rating"] == pytest.approx(1000) and rows["llama"]["anchor_score"] == 50
    for row in rows.values():
        expected = 100 / (1 + 10 ** ((1000 - row["rating"]) / 400))
        assert row["anchor_score"] == pytest.approx(expected)
        assert row["anchor_ci_low"] <= row["anchor_score"] <= row["anchor_ci_high"]
    assert rows["gpt-4"]["anchor_score"] > 50
    assert main(["ratings", "--battles", str(log), "--anchor", "llama", "--bootstrap", "20"]) == 0
    out = capsys.readouterr().out
    assert "vs llama (95% CI)" in out and "50.0% (50.0, 50.0)" in out

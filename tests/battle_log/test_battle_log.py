"""Reading battle logs with style counts: len_a/len_b and FastChat's conv_metadata."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena.battle_log.reader import load_battle_log
from arena.battle_log.writer import battle_log_rows
from arena.errors import InputError
from arena.ratings._style_counts import markdown_counts, markdown_metadata

pytestmark = pytest.mark.unit


def write(tmp_path: Path, rows: list[dict[str, Any]], name: str = "log.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    return path


def row(winner: str = "model_a", **extra: Any) -> dict[str, Any]:
    return {"model_a": "x", "model_b": "y", "winner": winner, "question_id": "q1", **extra}


def fastchat_meta(tokens: tuple[int, int], h1: int, lists: int, bold: int) -> dict[str, Any]:
    """conv_metadata as FastChat writes it: token sums flat, markdown counts nested."""
    return {
        "sum_assistant_a_tokens": tokens[0],
        "sum_assistant_b_tokens": tokens[1],
        "header_count_a": {"h1": h1, "h2": 1, "h3": 0, "h4": 0, "h5": 0, "h6": 0},
        "header_count_b": {"h1": 0, "h2": 0, "h3": 0, "h4": 0, "h5": 0, "h6": 0},
        "list_count_a": {"ordered": lists, "unordered": 2},
        "list_count_b": {"ordered": 0, "unordered": 1},
        "bold_count_a": {"**": bold, "__": 0},
        "bold_count_b": bold + 1,
    }


def test_plain_log_carries_no_style_counts(tmp_path: Path) -> None:
    battles = load_battle_log(write(tmp_path, [row(), row("tie")]))
    assert battles.len_a is None and battles.style_names == ()


def test_len_fields_are_answer_lengths(tmp_path: Path) -> None:
    battles = load_battle_log(
        write(tmp_path, [row(len_a=300, len_b=100), row("model_b", len_a=10.5, len_b=0)])
    )
    assert battles.len_a is not None and battles.len_b is not None
    assert battles.len_a.tolist() == [300.0, 10.5] and battles.len_b.tolist() == [100.0, 0.0]


def test_fastchat_conv_metadata_gives_length_and_markdown(tmp_path: Path) -> None:
    rows = [
        row(conv_metadata=fastchat_meta((50, 20), 2, 3, 1)),
        row("tie", conv_metadata=fastchat_meta((7, 9), 0, 0, 0)),
    ]
    battles = load_battle_log(write(tmp_path, rows))
    assert battles.len_a is not None and battles.len_b is not None
    assert battles.len_a.tolist() == [50.0, 7.0] and battles.len_b.tolist() == [20.0, 9.0]
    assert battles.style_names == ("headers", "lists", "bold")
    headers, lists, bold = (battles.style_counts(n) for n in battles.style_names)
    assert headers is not None and lists is not None and bold is not None
    assert headers[0].tolist() == [3.0, 1.0] and headers[1].tolist() == [0.0, 0.0]
    assert lists[0].tolist() == [5.0, 2.0] and lists[1].tolist() == [1.0, 1.0]
    assert bold[0].tolist() == [1.0, 0.0] and bold[1].tolist() == [2.0, 1.0]


def test_json_list_logs_and_len_fields_win_over_token_sums(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(
        json.dumps(
            [
                row(
                    len_a=5,
                    len_b=6,
                    conv_metadata={"sum_assistant_a_tokens": 1, "sum_assistant_b_tokens": 2},
                )
            ]
        )
    )
    battles = load_battle_log(path)
    assert battles.len_a is not None and battles.len_a.tolist() == [5.0]


def test_incomplete_counts_are_skipped_unless_required(tmp_path: Path) -> None:
    path = write(tmp_path, [row(len_a=3, len_b=4), row(), row(len_a=-1, len_b=2)])
    assert load_battle_log(path).len_a is None
    with pytest.raises(InputError) as info:
        load_battle_log(path, style=("length",))
    message = str(info.value)
    assert str(path) in message and "row 2" in message and "field len_a" in message


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"len_a": -1, "len_b": 2}, "field len_a"),
        ({"len_a": 1, "len_b": "long"}, "field len_b"),
        ({"len_a": True, "len_b": 2}, "field len_a"),
        (
            {"conv_metadata": {"header_count_a": {"h1": -2}, "header_count_b": 0}},
            "field conv_metadata.header_count_a",
        ),
        ({"conv_metadata": {"header_count_a": 1}}, "field conv_metadata.header_count_b"),
    ],
)
def test_bad_required_counts_name_row_and_field(
    tmp_path: Path, bad: dict[str, Any], field: str
) -> None:
    name = "headers" if "conv_metadata" in bad else "length"
    path = write(
        tmp_path,
        [
            row(len_a=1, len_b=1, conv_metadata={"header_count_a": 0, "header_count_b": 0}),
            row(**bad),
        ],
    )
    with pytest.raises(InputError) as info:
        load_battle_log(path, style=(name,))
    assert "row 2" in str(info.value) and field in str(info.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe not text", "not UTF-8"),
        (b"[" * 100_000, "nested too deeply"),
    ],
)
def test_unreadable_files_are_bad_input(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    with pytest.raises(InputError, match=message):
        load_battle_log(path)
    with pytest.raises(InputError, match="is a directory"):
        load_battle_log(tmp_path)


def test_unknown_required_count(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="unknown style count 'emoji'"):
        load_battle_log(write(tmp_path, [row()]), style=("emoji",))


def test_markdown_counting_follows_fastchat() -> None:
    text = (
        "# Title\n## Part\nnot # a header\n- one\n  * two\n3. three\n**bold** and __this__\n"
        "```\n# code\n- code\n**code**\n```\n"
    )
    meta = markdown_metadata(text)
    assert meta["header_count"] == {"h1": 1, "h2": 1, "h3": 0, "h4": 0, "h5": 0, "h6": 0}
    assert meta["list_count"] == {"ordered": 1, "unordered": 2}
    assert meta["bold_count"] == {"**": 1, "__": 1}
    assert markdown_counts(text) == {"headers": 2, "lists": 3, "bold": 2}
    assert markdown_counts("") == {"headers": 0, "lists": 0, "bold": 0}


def test_written_rows_read_back_with_the_same_counts(tmp_path: Path) -> None:
    class Judge:
        key, label, is_human = "judge-1", "fake:judge-1/text", False

    class StoredBattle:  # the fields of arena.battles.Battle the writer reads
        def __init__(self, a: str, b: str, winner: str, ra: int, rb: int) -> None:
            self.variant_a, self.variant_b, self.winner = a, b, winner
            self.result_a_id, self.result_b_id = ra, rb
            self.case_id, self.repeat, self.run_id, self.judge = "C-1", 0, 1, Judge()
            self.len_a, self.len_b = len(outputs[ra]), len(outputs[rb])
            self.strong, self.created_at = False, datetime.now(UTC)
            self.verdict_ab = self.verdict_ba = self.crashed = None
            self.abstained = False

    outputs = {1: "# Plan\n- a\n- b\n**done**", 2: "plain answer", 3: "1. x\n2. y"}
    stored = [
        StoredBattle("p", "q", "model_a", 1, 2),
        StoredBattle("p", "r", "tie", 1, 3),
        StoredBattle("q", "r", "error", 2, 3),
    ]
    rows = battle_log_rows(stored, outputs)  # type: ignore[arg-type]
    assert len(rows) == 2 and rows[0]["question_id"] == "C-1" and rows[0]["judge"] == "judge-1"
    assert rows[0]["conv_metadata"]["list_count_a"] == {"ordered": 0, "unordered": 2}
    battles = load_battle_log(write(tmp_path, rows), style=("length", "headers", "lists", "bold"))
    assert battles.models == ("p", "q", "r")
    assert battles.len_a is not None and battles.len_a.tolist() == [len(outputs[1])] * 2
    lists = battles.style_counts("lists")
    assert lists is not None
    np.testing.assert_array_equal(lists[0], [2.0, 2.0])
    np.testing.assert_array_equal(lists[1], [0.0, 2.0])

"""The pyarrow fast path of the battle-log reader gives exactly what the row reader gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena.battle_log.fast_reader import read_fast
from arena.battle_log.reader import load_battle_log, read_rows
from arena.errors import InputError
from arena.ratings import Battles

pytestmark = pytest.mark.unit

WINNERS = ("model_a", "model_b", "tie", "tie (bothbad)")


def write(tmp_path: Path, rows: list[dict[str, Any]], *, blank_lines: bool = False) -> Path:
    path = tmp_path / "log.jsonl"
    sep = "\n\n" if blank_lines else "\n"
    path.write_text(sep.join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    return path


def battle_rows(n: int, seed: int = 0, **extra: Any) -> list[dict[str, Any]]:
    rng = np.random.default_rng(seed)
    names = ["zeta", "alpha", "Émile", "beta-2", "b"]
    rows = []
    for i in range(n):
        a, b = rng.choice(len(names), 2, replace=False)
        row = {"model_a": names[a], "model_b": names[b], "winner": WINNERS[i % 4]}
        row.update({k: (v(i) if callable(v) else v) for k, v in extra.items()})
        rows.append(row)
    return rows


def assert_same(fast: Battles, slow: Battles) -> None:
    assert fast.models == slow.models and fast.style_names == slow.style_names
    for name in ("model_a", "model_b", "outcome", "query", "weight"):
        np.testing.assert_array_equal(getattr(fast, name), getattr(slow, name), err_msg=name)
    for name in ("len_a", "len_b", "style_a", "style_b"):
        left, right = getattr(fast, name), getattr(slow, name)
        assert (left is None) == (right is None), name
        if left is not None:
            np.testing.assert_array_equal(left, right, err_msg=name)


def fastchat_meta(i: int) -> dict[str, Any]:
    return {
        "sum_assistant_a_tokens": 10 + i,
        "sum_assistant_b_tokens": 3 * i,
        "header_count_a": {"h1": i % 3, "h2": 1},
        "header_count_b": {"h1": 0, "h2": 0, "h7": i},  # keys beyond FastChat's are summed too
        "list_count_a": {"ordered": 1, "unordered": i % 2},
        "list_count_b": {"ordered": 0, "unordered": None},  # null: an absent key
        "bold_count_a": {"**": 2, "__": 0},
        "bold_count_b": {"**": 0, "__": 1},
    }


CASES: dict[str, tuple[list[dict[str, Any]], tuple[str, ...]]] = {
    "string ids": (battle_rows(60, question_id=lambda i: f"q{i % 7}"), ()),
    "integer ids": (battle_rows(60, question_id=lambda i: 1000 - i % 9), ()),
    "no ids": (battle_rows(60), ()),
    "lengths": (
        battle_rows(40, question_id="same", len_a=lambda i: i * 1.5, len_b=lambda i: 7),
        ("length",),
    ),
    "flat metadata": (
        battle_rows(
            40,
            conv_metadata=lambda i: {
                "sum_assistant_a_tokens": i,
                "sum_assistant_b_tokens": 2,
                "header_count_a": 1,
                "header_count_b": i % 4,
            },
        ),
        ("length", "headers"),
    ),
    "fastchat nested metadata": (
        battle_rows(50, question_id=lambda i: i // 3, conv_metadata=fastchat_meta),
        ("length", "markdown"),
    ),
    "extra fields": (
        battle_rows(
            30,
            judge=lambda i: f"user{i}",
            tstamp=lambda i: 1.7e9 + i,
            conversation_a=lambda i: [{"role": "user", "content": "x" * i}],
            len_a=3,
            len_b=4,
        ),
        (),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_fast_path_equals_the_row_reader(tmp_path: Path, case: str) -> None:
    rows, wanted = CASES[case]
    from arena.ratings import expand_style

    style = expand_style(wanted) if wanted else ()
    path = write(tmp_path, rows, blank_lines=case == "no ids")
    fast = read_fast(path, style)
    assert fast is not None, "the fast path should take this log"
    assert_same(fast, read_rows(path, style=style))
    assert_same(load_battle_log(path, style=style), fast)


@pytest.mark.parametrize(
    "rows",
    [
        # mixed sources of a count: lengths in some rows, FastChat token sums in others
        battle_rows(10, len_a=2, len_b=3)
        + battle_rows(5, conv_metadata={"sum_assistant_a_tokens": 9, "sum_assistant_b_tokens": 1}),
        # ids in some rows only, a count missing from a later row
        battle_rows(5, question_id="q") + battle_rows(5),
        battle_rows(6, len_a=1, len_b=1) + battle_rows(2),
    ],
)
def test_logs_the_fast_path_declines_read_the_same(tmp_path: Path, rows: list[Any]) -> None:
    path = write(tmp_path, rows)
    assert_same(load_battle_log(path), read_rows(path))


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"winner": "draw"}, "row 3, field winner"),
        ({"model_b": "zeta", "model_a": "zeta"}, None),  # a self-battle: skipped row by row
        ({"model_a": 7}, "row 3, field model_a"),
        ({"model_a": ""}, "row 3, field model_a"),
        ({"question_id": 5}, None),  # a string id elsewhere: read row by row, no error
    ],
)
def test_bad_rows_are_named_as_before(
    tmp_path: Path, bad: dict[str, Any], message: str | None
) -> None:
    rows = battle_rows(5, question_id="q1")
    rows[2].update(bad)
    path = write(tmp_path, rows)
    assert read_fast(path, ()) is None
    if message is None:
        assert_same(load_battle_log(path), read_rows(path))
        return
    with pytest.raises(InputError, match=message):
        load_battle_log(path)


def test_required_count_missing_later_names_the_row(tmp_path: Path) -> None:
    rows = battle_rows(4, len_a=5, len_b=6)
    rows[3]["len_b"] = -1.0
    path = write(tmp_path, rows)
    assert read_fast(path, ("length",)) is None
    assert load_battle_log(path).len_a is None
    with pytest.raises(InputError, match="row 4, field len_b"):
        load_battle_log(path, style=("length",))

"""``arena ratings``, ``arena battles export`` and ``arena compare`` flags: one set of options,
the library's defaults, style control from battle logs, bad flags as exit 2."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena.cli import main
from arena.models import register_fake
from arena.ratings import (
    RATING_METHODS,
    Battles,
    RatingMethod,
    RatingOptions,
    rating_table,
)
from tests.ratings.test_rating_options import rate_win_share, small_arena
from tests.support.scripted import answers_by_case, prefers_an_answer

pytestmark = pytest.mark.unit


def _log(tmp_path: Path, rows: list[dict[str, Any]]) -> Path:
    path = tmp_path / "battles.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    return path


def _small_arena_log(tmp_path: Path) -> Path:
    battles = small_arena()
    win = {1.0: "model_a", 0.0: "model_b", 0.5: "tie"}
    return _log(
        tmp_path,
        [
            {
                "model_a": battles.models[a],
                "model_b": battles.models[b],
                "winner": win[y],
                "question_id": f"q{i % 8}",
            }
            for i, (a, b, y) in enumerate(
                zip(battles.model_a, battles.model_b, battles.outcome, strict=True)
            )
        ],
    )


def _ratings(capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    return {r["model"]: r for r in json.loads(capsys.readouterr().out)}


def test_library_and_cli_give_identical_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 24 battles with an undefeated model: the old library prior (1e-6) and the CLI's (0.1)
    # put it 11 Elo apart (the spread of the three ratings 22 apart).
    assert main(["ratings", "--battles", str(_small_arena_log(tmp_path)), "--json"]) == 0
    cli = _ratings(capsys)
    table = rating_table(small_arena())  # every default
    for i, model in enumerate(table.models):
        assert cli[model]["rating"] == pytest.approx(table.rating[i], abs=1e-9)
        assert cli[model]["ci_low"] == pytest.approx(table.ci_low[i], abs=1e-9)
        assert cli[model]["ci_high"] == pytest.approx(table.ci_high[i], abs=1e-9)
        assert cli[model]["elo"] == pytest.approx(table.elo[i], abs=1e-9)
    assert (
        main(
            [
                "ratings",
                "--battles",
                str(_small_arena_log(tmp_path)),
                "--json",
                "--reg",
                "1e-6",
                "--bootstrap",
                "50",
            ]
        )
        == 0
    )
    loose = _ratings(capsys)
    assert abs(loose["x"]["rating"] - cli["x"]["rating"]) > 5.0


@pytest.mark.parametrize(
    ("flags", "flag"),
    [
        (["--reg", "0"], "--reg"),
        (["--reg", "-1"], "--reg"),
        (["--reg", "nan"], "--reg"),
        (["--bootstrap", "0"], "--bootstrap"),
        (["--bootstrap", "-3"], "--bootstrap"),
        (["--elo-rounds", "-1"], "--elo-rounds"),
        (["--seed", "-2"], "--seed"),
        (["--method", "glicko"], "--method"),
        (["--method", "bt", "--style-control"], "--style-control"),
        (["--style-control", "length,,bold"], "--style-control"),
    ],
)
@pytest.mark.parametrize("source", ["battles", "db"])
def test_bad_rating_flags_exit_2_naming_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], flag: str, source: str
) -> None:
    db = tmp_path / "never.db"
    where = (
        ["--battles", str(_small_arena_log(tmp_path))]
        if source == "battles"
        else ["--db", f"sqlite:///{db}"]
    )
    assert main(["ratings", *where, *flags]) == 2
    err = capsys.readouterr().err
    assert f"arena: error: {flag}: " in err and "Traceback" not in err
    assert not db.exists()  # nothing written


def test_compare_bootstrap_0_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "never.db"
    assert (
        main(
            [
                "compare",
                "--baseline",
                "a",
                "--candidate",
                "b",
                "--bootstrap",
                "0",
                "--db",
                f"sqlite:///{db}",
            ]
        )
        == 2
    )
    assert "--bootstrap: must be >= 1" in capsys.readouterr().err and not db.exists()


def test_unknown_anchor_and_unidentifiable_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        {"model_a": "anchor", "model_b": m, "winner": "model_a", "len_a": 30, "len_b": 20}
        for m in ("p", "q")
    ] * 3
    log = str(_log(tmp_path, rows))
    assert main(["ratings", "--battles", log, "--style-control", "length,seat"]) == 2
    assert "--style-control: the seat effect is not identifiable" in capsys.readouterr().err
    assert main(["ratings", "--battles", log, "--anchor", "nobody"]) == 2
    assert "--anchor: unknown model 'nobody'" in capsys.readouterr().err


def test_style_control_on_a_log_with_lengths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(7)
    rows = []
    for i in range(400):  # equal models, x always seat A and longer, longer answers win
        la, lb = (
            300 * np.exp(0.4 * rng.standard_normal()),
            100 * np.exp(0.4 * rng.standard_normal()),
        )
        p = 1.0 / (1.0 + np.exp(-2.0 * (la - lb) / (la + lb + 1.0)))
        rows.append(
            {
                "model_a": "x",
                "model_b": "y",
                "question_id": f"q{i % 100}",
                "winner": "model_a" if rng.random() < p else "model_b",
                "len_a": round(la),
                "len_b": round(lb),
            }
        )
    log = str(_log(tmp_path, rows))
    assert main(["ratings", "--battles", log, "--json", "--bootstrap", "100"]) == 0
    plain = _ratings(capsys)
    assert plain["x"]["rating"] - plain["y"]["rating"] > 100.0  # length counted as quality
    assert (
        main(["ratings", "--battles", log, "--json", "--bootstrap", "100", "--style-control"]) == 0
    )
    style = _ratings(capsys)
    assert style["x"]["ci_low"] <= 1000.0 <= style["x"]["ci_high"]
    assert abs(style["x"]["rating"] - style["y"]["rating"]) < 60.0
    assert main(["ratings", "--battles", log, "--bootstrap", "50", "--style-control"]) == 0
    out = capsys.readouterr().out
    assert "style effects in Elo points" in out and "length" in out


def test_style_control_needs_counts_in_every_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _log(
        tmp_path,
        [
            {"model_a": "x", "model_b": "y", "winner": "tie", "len_a": 1, "len_b": 2},
            {"model_a": "x", "model_b": "y", "winner": "tie"},
        ],
    )
    assert main(["ratings", "--battles", str(log), "--style-control"]) == 2
    err = capsys.readouterr().err
    assert str(log) in err and "row 2" in err and "field len_a" in err
    assert main(["ratings", "--battles", str(log), "--style-control", "markdown"]) == 2
    assert "field conv_metadata.header_count_a" in capsys.readouterr().err


@pytest.fixture
def win_share() -> Iterator[None]:
    with RATING_METHODS.scope():
        RATING_METHODS.register(
            "win-share", RatingMethod(rate_win_share, intervals=False), "overall score share"
        )
        yield


def test_methods_are_listed_and_selected_from_the_registry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], win_share: None
) -> None:
    assert main(["ratings", "--methods"]) == 0
    out = capsys.readouterr().out
    for name in ("bt", "style-bt", "elo", "elo-median", "win-share"):
        assert f"\n{name} " in out
    log = str(_small_arena_log(tmp_path))
    assert main(["ratings", "--battles", log, "--method", "win-share", "--json"]) == 0
    rows = _ratings(capsys)
    assert rows["x"]["rank"] == 1 and rows["x"]["ci_low"] is None
    assert main(["ratings", "--battles", log, "--method", "elo"]) == 0
    assert "[-, -]" in capsys.readouterr().out


GOOD = {"C-1": "## Answer\n- **300**\n- checked", "C-2": "I cannot send emails."}


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_export_a_run_and_rate_it_with_markdown_style(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [
        {
            "id": "C-1",
            "input": "What's 25% of 1200? #C-1",
            "category": "happy_path",
            "expected_output_contains": ["300"],
        },
        {"id": "C-2", "input": "Send an email #C-2", "category": "graceful_failure"},
    ]
    dataset = tmp_path / "golden.json"
    dataset.write_text(
        json.dumps({"name": "x", "available_tools": ["calculate"], "test_cases": cases})
    )
    variants = []
    for name in ("good", "bad"):
        register_fake(
            f"rcli-{name}", [answers_by_case(GOOD if name == "good" else None)], cycle=True
        )
        path = tmp_path / f"{name}.yaml"
        path.write_text(f"name: {name}\nmodel: {{spec: 'fake:rcli-{name}'}}\ntools: []\n")
        variants.append(str(path))
    db = ["--db", db_url]
    assert (
        main(["run", "--variants", *variants, "--dataset", str(dataset), "--repeats", "2", *db])
        == 0
    )
    register_fake("rcli-judge", [prefers_an_answer], cycle=True)
    assert main(["judge", "--judge", "fake:rcli-judge/text", *db]) == 0
    capsys.readouterr()

    log = tmp_path / "out" / "battles.jsonl"
    assert main(["battles", "export", str(log), *db]) == 0
    assert "wrote 4 battles" in capsys.readouterr().out
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    good_is_a = rows[0]["model_a"] == "good"
    first = rows[0]["conv_metadata"]
    assert first["header_count_a" if good_is_a else "header_count_b"]["h2"] in (0, 1)
    assert {r["question_id"] for r in rows} == {"C-1", "C-2"}

    assert (
        main(
            [
                "ratings",
                "--battles",
                str(log),
                "--json",
                "--bootstrap",
                "50",
                "--style-control",
                "length,markdown",
            ]
        )
        == 0
    )
    from_log = _ratings(capsys)
    assert (
        main(["ratings", "--json", "--bootstrap", "50", "--style-control", "length,markdown", *db])
        == 0
    )
    board = json.loads(capsys.readouterr().out)
    assert board["method"] == "style-bt"
    assert board["style"] == ["length", "headers", "lists", "bold"]
    assert [e["name"] for e in board["effects"]] == board["style"]
    for entry in board["entries"]:  # the run and its exported log rate the same
        assert entry["rating"] == pytest.approx(from_log[entry["variant"]]["rating"], abs=1e-6)
    assert main(["ratings", "--bootstrap", "20", "--style-control", *db]) == 0
    out = capsys.readouterr().out
    assert "style-controlled; Bradley-Terry ratings controlled for length" in out
    assert "style effects in Elo points" in out
    assert main(["ratings", "--bootstrap", "20", *db]) == 0
    out = capsys.readouterr().out
    assert "Bradley-Terry ratings with 95% query-bootstrap intervals (20 rounds)" in out
    assert "style effects" not in out
    assert main(["battles", "export", str(log), "--judge", "nope", *db]) == 2


def test_rating_options_match_the_flags() -> None:
    from arena.cli import build_parser
    from arena.cli.ratings import rating_options

    args = build_parser().parse_args(
        [
            "ratings",
            "--reg",
            "0.5",
            "--bootstrap",
            "20",
            "--seed",
            "4",
            "--style-control",
            "markdown",
            "--anchor",
            "x",
            "--elo-rounds",
            "0",
        ]
    )
    assert rating_options(args) == RatingOptions(
        reg=0.5,
        bootstrap_rounds=20,
        seed=4,
        style=("headers", "lists", "bold"),
        anchor="x",
        elo_rounds=0,
    )
    assert rating_options(build_parser().parse_args(["ratings"])) == RatingOptions()
    assert isinstance(small_arena(), Battles)

"""score, baseline, check, judge, ratings and compare through the CLI, on scripted models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.models import register_fake
from tests.support.scripted import answers_by_case, prefers_an_answer

pytestmark = pytest.mark.unit

GOOD = {"C-1": "The answer is 300.", "C-2": "I cannot send emails.", "C-3": "It is 42."}


def _files(tmp_path: Path) -> tuple[Path, list[Path]]:
    cases = [
        {
            "id": "C-1",
            "input": "What's 25% of 1200? #C-1",
            "category": "happy_path",
            "tier": "critical",
            "expected_output_contains": ["300"],
        },
        {
            "id": "C-2",
            "input": "Send an email #C-2",
            "category": "graceful_failure",
            "tier": "critical",
            "expected_output_contains": [["cannot", "can't"]],
        },
        {
            "id": "C-3",
            "input": "What is six times seven? #C-3",
            "category": "happy_path",
            "tier": "standard",
            "expected_output_contains": ["42"],
        },
    ]
    dataset = tmp_path / "golden.json"
    dataset.write_text(
        json.dumps({"name": "cli", "available_tools": ["calculate"], "test_cases": cases})
    )
    variants = []
    for name in ("good", "good2", "bad"):
        register_fake(f"cli-{name}", [answers_by_case(GOOD if name != "bad" else None)], cycle=True)
        path = tmp_path / f"{name}.yaml"
        path.write_text(f"name: {name}\nmodel: {{spec: 'fake:cli-{name}'}}\ntools: []\n")
        variants.append(path)
    return dataset, variants


def _json(capsys: pytest.CaptureFixture[str]) -> Any:
    return json.loads(capsys.readouterr().out)


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_full_pipeline(tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    dataset, variants = _files(tmp_path)
    db = ["--db", db_url]
    assert main(["run", "--variants", *map(str, variants), "--dataset", str(dataset), *db]) == 0
    capsys.readouterr()

    assert main(["score", "--json", *db]) == 0
    doc = _json(capsys)
    by_variant = {v["variant"]: v for v in doc["variants"]}
    assert by_variant["good"]["pass_rate"] == 1.0 and by_variant["bad"]["pass_rate"] == 0.0
    assert main(["score", "--markdown", *db]) == 0
    assert "| good" in capsys.readouterr().out

    exported = tmp_path / "baselines" / "baseline.json"  # the folder does not exist yet
    assert main(["baseline", "save", "good", "--export", str(exported), *db]) == 0
    assert "saved" in capsys.readouterr().out and exported.exists()
    assert main(["baseline", "save", "bad", "--name", "good", *db]) == 0
    assert "kept" in capsys.readouterr().out  # a baseline only moves up
    assert main(["check", "--candidate", "good2", "--baseline", "good", *db]) == 0
    md = tmp_path / "reports" / "check.md"
    assert (
        main(
            ["check", "--candidate", "bad", "--baseline", str(exported), "--markdown", str(md), *db]
        )
        == 1
    )
    assert "critical" in capsys.readouterr().out and md.read_text().startswith("#")
    assert main(["check", "--candidate", "bad", "--baseline", "nope", *db]) == 2
    capsys.readouterr()

    register_fake("cli-judge", [prefers_an_answer], cycle=True)
    assert main(["judge", "--judge", "fake:cli-judge/text", "--json", *db]) == 0
    judged = _json(capsys)
    assert len(judged["battles"]) == 9 and judged["health"]["position_consistency"] == 1.0

    assert main(["ratings", "--json", "--bootstrap", "200", *db]) == 0
    board = _json(capsys)
    entries = {e["variant"]: e for e in board["entries"]}
    assert entries["good"]["rating"] > entries["bad"]["rating"]
    assert entries["bad"]["critical_pass_rate"] == 0.0 and entries["good"]["battles"] == 6
    assert board["entries"][-1]["variant"] == "bad"

    assert main(["compare", "--baseline", "good", "--candidate", "bad", "--json", *db]) == 1
    assert _json(capsys)["verdict"] == "worse"
    assert main(["compare", "--baseline", "good", "--candidate", "good2", *db]) == 0
    assert "IDENTICAL ANSWERS" in capsys.readouterr().out  # not a verdict from ties
    # three wins out of three cases: promising, too few to call better (exit 1)
    assert main(["compare", "--baseline", "bad", "--candidate", "good", "--json", *db]) == 1
    report = _json(capsys)
    assert report["verdict"] == "inconclusive" and report["win_rate"] == 1.0
    assert report["ci_low"] < 0.5 < report["ci_high"]
    assert main(["compare", "--baseline", "good", "--candidate", "zzz", *db]) == 2


def test_ratings_of_a_chatbot_arena_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [
        {"model_a": "x", "model_b": "y", "winner": w, "question_id": f"q{i % 5}"}
        for i, w in enumerate(["model_a"] * 12 + ["model_b"] * 4 + ["tie", "tie (bothbad)"])
    ]
    log = tmp_path / "battles.jsonl"
    log.write_text("\n".join(json.dumps(r) for r in rows))
    assert main(["ratings", "--battles", str(log), "--json", "--bootstrap", "200"]) == 0
    out = _json(capsys)
    assert [r["model"] for r in out] == ["x", "y"]
    assert {
        "model",
        "rating",
        "ci_low",
        "ci_high",
        "elo",
        "rank",
        "wins",
        "losses",
        "ties",
        "battles",
    } <= set(out[0])
    assert out[0]["wins"] == 12 and out[0]["ties"] == 2 and out[0]["battles"] == 18
    assert out[0]["ci_low"] <= out[0]["rating"] <= out[0]["ci_high"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"model_a": "x", "model_b": "y"}', "row 1, field winner"),
        ('{"model_a": "x", "model_b": "y", "winner": "model_c"}', "winner must be one of"),
        (
            '{"model_a": "x", "model_b": "x", "winner": "tie"}',
            "no battles in the file: 1 self-battle",
        ),
        ("{oops", "line 1: malformed JSON"),
        ("", "no battles"),
    ],
)
def test_bad_battle_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(content)
    assert main(["ratings", "--battles", str(log)]) == 2
    err = capsys.readouterr().err
    assert str(log) in err and message in err


def test_empty_database_messages(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["runs", "--db", db_url]) == 0
    assert "no runs stored yet" in capsys.readouterr().out
    assert main(["score", "--db", db_url]) == 2
    assert "arena run" in capsys.readouterr().err

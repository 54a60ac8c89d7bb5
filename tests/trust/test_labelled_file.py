"""Labelled verdicts from a file (e.g. a shipped human-preference set judged by the same
judge): read with clear errors, MT-Bench refused, and used by `arena health --labels`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.errors import InputError
from arena.trust import labelled_for, read_labelled

pytestmark = pytest.mark.unit

JUDGE = "local:qwen2.5-coder-1.5b/grades"


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_rows_become_labelled_verdicts_of_their_judge(tmp_path: Path) -> None:
    rows = read_labelled(
        _write(
            tmp_path / "labels.jsonl",
            [
                {
                    "source": "llmbar",
                    "judge": JUDGE,
                    "p_a": 0.9,
                    "said": "model_a",
                    "label": "model_a",
                },
                {"source": "llmbar", "score": 0.2, "said": "model_b", "label": "model_a"},
                {
                    "source": "llmbar",
                    "judge": "other/text",
                    "score": 1,
                    "said": "model_a",
                    "label": "model_a",
                },
                {"source": "llmbar", "score": 0.5, "said": "model_a", "label": "tie"},
            ],
        )
    )
    found = labelled_for(rows, JUDGE)
    assert [(round(x.score, 2), x.agrees, x.source) for x in found] == [
        (0.8, True, "llmbar"),
        (0.2, False, "llmbar"),
    ]


@pytest.mark.parametrize(
    ("row", "field", "says"),
    [
        ({"source": "x", "said": "model_a", "label": "model_a"}, None, "exactly one of score"),
        ({"source": "x", "score": 2, "said": "model_a", "label": "model_a"}, "score", "less"),
        ({"source": "x", "score": 0.5, "label": "model_a"}, "said", "required"),
        (
            {"source": "MT-Bench human", "score": 0.5, "said": "a", "label": "a"},
            "source",
            "MT-Bench",
        ),
        (
            {"source": "x", "score": 0.5, "said": "banana", "label": "model_a"},
            "said",
            "must be one of model_a, model_b, tie, tie \\(bothbad\\), error, got 'banana'",
        ),
        (
            {"source": "x", "score": 0.5, "said": "model_a", "label": "draw"},
            "label",
            "must be one of model_a, model_b, tie, tie \\(bothbad\\), got 'draw'",
        ),
        ({"source": "x", "score": 0.5, "said": "model_a", "label": "error"}, "label", "'error'"),
    ],
)
def test_a_bad_row_names_the_file_line_and_field(
    tmp_path: Path, row: dict, field: str | None, says: str
) -> None:
    path = _write(
        tmp_path / "labels.jsonl",
        [{"source": "ok", "score": 0.5, "said": "model_a", "label": "model_a"}, row],
    )
    with pytest.raises(InputError, match=says) as caught:
        read_labelled(path)
    assert caught.value.file == str(path) and caught.value.case == "line 2"
    assert caught.value.field == field


@pytest.mark.system  # a run, judging and storage
def test_arena_health_calibrates_on_a_labels_file(
    store, db_url: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from arena.battles import judge_run
    from arena.cli import main
    from arena.evaluation.run_scores import score_run
    from arena.models import ModelConfig, register_fake
    from judges import JudgeSpec
    from tests.battles.test_judges import _prefers_300, _run

    run_id = _run(store)
    score_run(store, run_id)
    register_fake("lab", [_prefers_300], cycle=True)
    judge_run(store, run_id, JudgeSpec(model=ModelConfig(spec="fake:lab")), progress=False)
    rows = [{"source": "shipped", "score": 0.75, "said": "model_a", "label": "model_a"}] * 40
    labels = _write(tmp_path / "labels.jsonl", rows)
    assert main(["health", str(run_id), "--labels", str(labels), "--db", db_url]) == 0
    out = capsys.readouterr().out
    # 8 golden-decisive pairs and 40 shipped rows, each a pair of its own: all 48 calibrate.
    assert "calibrated on 48 labelled pairs (golden 8, shipped 40)" in out
    assert "agreement with the labels (golden checks, people) >= 80%" in out
    bad = _write(
        tmp_path / "bad.jsonl", [{"source": "mt_bench", "score": 1, "said": "a", "label": "a"}]
    )
    assert main(["health", str(run_id), "--labels", str(bad), "--db", db_url]) == 2
    assert "MT-Bench" in capsys.readouterr().err


def test_rows_naming_one_pair_count_once_and_unnamed_rows_each_count(tmp_path: Path) -> None:
    from arena.trust import calibrate

    same = {"source": "team", "case_id": "C-1", "variant_a": "x", "variant_b": "y"}
    rows = [{**same, "score": 0.9, "said": "model_a", "label": "model_a"}] * 15
    found = labelled_for(read_labelled(_write(tmp_path / "one.jsonl", rows)), JUDGE)
    one = calibrate(found)
    assert len(found) == 15 and one is not None
    assert (one.calibration_pairs, one.threshold) == (1, None)  # one pair backs nothing
    free = [{"source": "team", "score": 0.9, "said": "model_a", "label": "model_a"}] * 15
    many = calibrate(labelled_for(read_labelled(_write(tmp_path / "many.jsonl", free)), JUDGE))
    assert many is not None and many.calibration_pairs == 15 and many.threshold is not None

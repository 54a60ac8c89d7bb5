"""What a new user's trial of ``arena shadow`` found (issue 41): the judge from arena.yaml, a
judge that fails is no loss, ``--stratify`` on a field no trace has, a BOM, ``run_id`` in the
JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage

from arena.cli import main
from arena.models import register_fake
from arena.production import ShadowReport
from arena.storage import Store
from judges import parse_judge
from tests.production.helpers import trace_rows, write_jsonl
from tests.production.scripted import register_models, variant_file

pytestmark = pytest.mark.system  # end to end through the CLI, on scripted models

JUDGE = "fake:prefers-good/text"


def _argv(tmp_path: Path, traces: str, *more: str) -> list[str]:
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    cand = variant_file(tmp_path, "cand", "better")
    return ["shadow", "--traces", traces, "--candidate", cand, "--db", db, "--json", *more]


def test_the_judge_comes_from_arena_yaml_compare_judge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    config = tmp_path / "arena.yaml"
    config.write_text(f"compare:\n  judge: {JUDGE}\n")
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(4))
    assert main(_argv(tmp_path, traces, "--config", str(config))) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["battles"] == 4
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    assert {key for key, _, _ in store.judge_keys(report["run_id"])} == {parse_judge(JUDGE).key}


def test_a_judge_that_always_fails_is_exit_2_with_its_error_not_a_loss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    register_fake("mute", [lambda _: AIMessage("I cannot decide.")], cycle=True)
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(6))
    argv = _argv(tmp_path, traces, "--judge", "fake:mute/text", "--require", "non-inferior")
    assert main(argv) == 2
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["battles"] == 0
    assert "the judge fake:mute/text failed on 6 of 6 battles" in captured.err
    assert "could not be made" in captured.err
    assert "first error (6 battles)" in captured.err
    assert main(argv) == 2  # a rerun asks the judge again: failed verdicts are not cached
    again = json.loads(capsys.readouterr().out)
    # the candidate's six answers come from the cache, every judge call is made again
    assert again["model_calls"] == report["model_calls"] - 6 > 0


def test_sequential_stops_at_the_first_look_when_the_judge_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    register_fake("mute", [lambda _: AIMessage("I cannot decide.")], cycle=True)
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(6))
    argv = _argv(tmp_path, traces, "--judge", "fake:mute/text", "--sequential",
                 "--look-every", "2")  # fmt: skip
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "failed on 2 of 2 battles" in captured.err
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    assert len(store.runs()) == 1  # one look, not three


def test_json_has_the_run_id_golden_add_from_shadow_needs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(3))
    assert main(_argv(tmp_path, traces, "--judge", JUDGE)) == 0
    report = json.loads(capsys.readouterr().out)
    (run,) = Store(f"sqlite:///{tmp_path / 'arena.db'}").runs()
    assert report["run_id"] == run.id


def test_stratify_by_a_field_no_trace_has_is_exit_2_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(10))
    argv = _argv(tmp_path, traces, "--judge", JUDGE, "--stratify", "nosuch", "--sample", "0.2")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"file {traces}, field --stratify:" in err
    assert "no trace of the 10 read has the metadata field 'nosuch'" in err
    assert not (tmp_path / "arena.db").exists()


def test_a_byte_order_mark_at_the_start_of_a_traces_file_is_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    traces = tmp_path / "prod.jsonl"
    write_jsonl(traces, trace_rows(3))
    traces.write_bytes(b"\xef\xbb\xbf" + traces.read_bytes())
    assert main(_argv(tmp_path, str(traces), "--judge", JUDGE)) == 0
    assert json.loads(capsys.readouterr().out)["sampled"] == 3


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (b'{"trace_id": "t9", "query": "q"}\n', "line 3, field answer: Field required"),
        (b'{"trace_id": "t9", "query": \n', "line 3: malformed JSON: Expecting value"),
        (b"[1, 2]\n", "line 3: expected a JSON object"),
    ],
    ids=["field", "malformed", "not an object"],
)
def test_a_bad_line_is_worded_file_line_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: bytes, says: str
) -> None:
    traces = tmp_path / "prod.jsonl"
    write_jsonl(traces, trace_rows(2))
    traces.write_bytes(traces.read_bytes() + line)
    assert main(["shadow", "--traces", str(traces), "--evaluate-only", "--db",
                 f"sqlite:///{tmp_path / 'arena.db'}"]) == 2  # fmt: skip
    assert f"arena: error: file {traces}, {says}" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("judged", "failed", "refused"), [(4, 4, False), (3, 4, True), (0, 1, True)]
)
def test_the_comparison_is_refused_once_more_than_half_the_battles_failed(
    judged: int, failed: int, refused: bool
) -> None:
    report = ShadowReport(
        run_id=1, candidate="c", judge="k", judge_label="fake:j/text", read=9, sampled=8,
        battles=judged, win_rate=None, interval=None, margin=0.05, non_inferior=False,
        losses=[], model_calls=0, judge_errors=failed, judge_error="boom",
        judge_error_count=failed,
    )  # fmt: skip
    failure = report.judge_failure()
    assert (failure is not None) is refused
    if failure is not None:
        assert f"failed on {failed} of {judged + failed} battles" in failure and "boom" in failure

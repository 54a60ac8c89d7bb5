"""``arena shadow`` on scripted models: the same sample on a rerun with no new calls, a worse
candidate loses and fails ``--require non-inferior``, the JSON keys, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest

from arena.cli import main
from arena.production import PRODUCTION, SHADOW_KEYS
from arena.storage import Store
from tests.production.helpers import trace_rows, write_jsonl
from tests.production.scripted import register_models, variant_file

pytestmark = pytest.mark.system  # end to end through the CLI, on scripted models

JUDGE = "fake:prefers-good/text"


def _shadow(tmp_path: Path, traces: str, candidate: str, *more: str) -> list[str]:
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    return ["shadow", "--traces", traces, "--candidate", candidate, "--judge", JUDGE,
            "--db", db, "--json", *more]  # fmt: skip


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    return json.loads(capsys.readouterr().out)


def test_a_rerun_picks_the_same_records_with_zero_new_calls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(12, answer="GOOD answer"))
    argv = _shadow(tmp_path, traces, variant_file(tmp_path, "cand", "better"),
                   "--sample", "0.5", "--seed", "1")  # fmt: skip
    assert main(argv) == 0
    first = _json(capsys)
    assert list(first) == list(SHADOW_KEYS)
    assert 0 < first["sampled"] < 12 and first["battles"] == first["sampled"]
    assert first["model_calls"] == first["sampled"] * 3  # one agent call, two judge orders
    assert main(argv) == 0
    again = _json(capsys)
    assert again["model_calls"] == 0 and again["sampled"] == first["sampled"]
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    (run,) = store.runs()  # the same run, resumed
    cases = {r.case_id for r in store.results(run.id)}
    assert len(cases) == first["sampled"]
    wider = _shadow(tmp_path, traces, variant_file(tmp_path, "cand", "better"),
                    "--sample", "0.9", "--seed", "1")  # fmt: skip
    assert main(wider) == 0
    more = _json(capsys)
    assert more["sampled"] > first["sampled"]
    assert more["model_calls"] == (more["sampled"] - first["sampled"]) * 3  # only the new


def test_a_worse_candidate_loses_and_fails_require_non_inferior(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(10, answer="GOOD answer"))
    worse = variant_file(tmp_path, "cheap", "worse")
    argv = _shadow(tmp_path, traces, worse, "--require", "non-inferior", "--margin", "0.1")
    assert main(argv) == 1
    report = _json(capsys)
    assert report["win_rate"] == 0.0 and report["non_inferior"] is False
    assert report["interval"][1] < 0.4
    assert len(report["losses"]) == 10
    loss = report["losses"][0]
    assert loss["production"].startswith("GOOD answer") and loss["candidate"] == "I am not sure."
    assert main(argv[:-4]) == 0  # without --require: the report, exit 0
    capsys.readouterr()


def test_a_better_candidate_passes_require_non_inferior(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(10, answer="meh answer"))
    argv = _shadow(tmp_path, traces, variant_file(tmp_path, "cand", "better"),
                   "--require", "non-inferior")  # fmt: skip
    assert main(argv) == 0
    report = _json(capsys)
    assert report["win_rate"] == 1.0 and report["non_inferior"] is True
    assert report["losses"] == []


def test_redact_keeps_personal_data_out_of_the_database_and_the_judge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    rows = trace_rows(3, answer="GOOD answer")
    for row in rows:
        row["query"] += " I am jane@example.com, +1 415 555 0142"
    traces = write_jsonl(tmp_path / "prod.jsonl", rows)
    argv = _shadow(tmp_path, traces, variant_file(tmp_path, "cand", "better"), "--redact")
    assert main(argv) == 0
    capsys.readouterr()
    database = (tmp_path / "arena.db").read_bytes()
    assert b"jane@example.com" not in database and b"555 0142" not in database
    assert b"[email redacted]" in database


def test_bad_traces_exit_2_and_store_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    rows = trace_rows(4)
    del rows[3]["answer"]
    traces = write_jsonl(tmp_path / "prod.jsonl", rows)
    assert main(_shadow(tmp_path, traces, variant_file(tmp_path, "cand", "better"))) == 2
    err = capsys.readouterr().err
    assert f"file {traces}" in err and "line 4" in err and "field answer" in err
    assert not (tmp_path / "arena.db").exists()


def test_the_candidate_may_not_take_production_s_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(2))
    assert main(_shadow(tmp_path, traces, variant_file(tmp_path, PRODUCTION, "better"))) == 2
    assert "may not be named 'production'" in capsys.readouterr().err


def test_bad_flags_and_a_judge_that_cannot_be_built_store_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    register_models()
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(2))
    argv = _shadow(tmp_path, traces, variant_file(tmp_path, "cand", "better"))
    assert main([*argv, "--sample", "1.5"]) == 2
    assert "field --sample: Input should be less than or equal to 1" in capsys.readouterr().err
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    judge = argv.index(JUDGE)
    assert main([*argv[:judge], "openai:gpt-4o-mini", *argv[judge + 1 :]]) == 2
    assert "the judge openai:gpt-4o-mini" in capsys.readouterr().err
    assert (
        not (tmp_path / "arena.db").exists()
        or not Store(f"sqlite:///{tmp_path / 'arena.db'}").runs()
    )


def test_sequential_stops_once_settled_and_reruns_without_calls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(60, answer="GOOD answer"))
    worse = variant_file(tmp_path, "cheap", "worse")
    argv = _shadow(tmp_path, traces, worse, "--sequential", "--look-every", "5",
                   "--require", "non-inferior")  # fmt: skip
    assert main(argv) == 1
    report = _json(capsys)
    assert report["non_inferior"] is False and report["interval"][1] < 0.45
    assert report["sampled"] < 60  # stopped before the end of the sample
    assert report["model_calls"] == report["sampled"] * 3  # each trace called for once
    assert main(argv) == 1
    assert _json(capsys)["model_calls"] == 0  # the same looks: every reply cached
    assert main([a for a in argv if a != "--json"]) == 1
    out = capsys.readouterr().out
    assert f"sequential: worse after {report['sampled']} of 60 traces" in out


def test_runs_and_judging_go_through_an_executor(tmp_path: Path) -> None:
    from arena.executors import LocalExecutor
    from arena.gate import resolve_variants
    from arena.production import SampleSpec, ShadowOptions, shadow
    from arena.runner import RunOptions
    from judges import parse_judge

    class Counting(LocalExecutor):
        handed: ClassVar[list[str]] = []

        async def run_task(self, *args: Any, **kwargs: Any) -> Any:
            self.handed.append("task")
            return await super().run_task(*args, **kwargs)

        async def judge_pair(self, *args: Any, **kwargs: Any) -> Any:
            self.handed.append("pair")
            return await super().judge_pair(*args, **kwargs)

    register_models()
    traces = write_jsonl(tmp_path / "prod.jsonl", trace_rows(4, answer="GOOD answer"))
    (candidate,) = resolve_variants([variant_file(tmp_path, "cheap", "worse")], None, "c")
    store = Store(f"sqlite:///{tmp_path / 'arena.db'}")
    options = ShadowOptions(
        sample=SampleSpec(fraction=1.0), run=RunOptions(progress=False), executor=Counting()
    )
    report = shadow(store, traces, candidate, parse_judge(JUDGE), options)
    assert report.battles == 4 and report.win_rate == 0.0
    assert report.run_calls == 4 and report.judge_calls == 8
    assert sorted(Counting.handed) == ["pair"] * 4 + ["task"] * 4  # production never ran

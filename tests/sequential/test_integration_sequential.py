"""`arena compare --sequential` and `arena gate --sequential` on the real local model, on the
fewest cases that run both commands end to end (two cases: the model is shared in CI). The
baseline and the judge are the local model; ``small-model``'s answers are scripted, as in
tests/battles/test_integration_judge.py (same script, so its answers come from the cache)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.storage import Store

pytestmark = pytest.mark.integration

CASES = "HP-003,GF-001"
JUDGE = "local:qwen2.5-coder-1.5b"
SCRIPTED = Path(__file__).resolve().parents[1] / "support" / "scripted_small_model.yaml"


def test_both_sequential_commands_work_on_the_local_model(
    local_db_url: str,
    golden_path: Path,
    variants_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ARENA_FAKE_SCRIPTS", str(SCRIPTED))
    where = ["--dataset", str(golden_path), "--variants-dir", str(variants_dir)]
    code = main(
        [
            "compare", "--sequential", "--baseline", "baseline", "--candidate", "small-model",
            *where, "--cases", CASES, "--judge", JUDGE, "--json", "--db", local_db_url,
        ]
    )  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert code in (0, 1) and report["cases_total"] == 2
    assert 1 <= report["cases_used"] <= 2 and report["stopped_because"]
    assert report["verdict"] in ("better", "worse", "non-inferior", "inconclusive")
    assert report["plan"]["boundary"] == "spending"  # the default: known horizon, futility
    for point in report["trace"]:
        assert 0 <= point["lower"] <= point["mean"] <= point["upper"] <= 1
    # every look ran on a new event loop with the models kept: none of them failed for it
    errors = [r.error for r in Store(local_db_url).results(report["run_id"]) if r.error]
    assert not errors, errors
    reports = tmp_path / "reports"
    code = main(
        [
            "gate", "--sequential", "--baseline", "baseline", "--candidate", "small-model",
            *where, "--tier", "all", "--cases", CASES, "--judge", JUDGE,
            "--report-dir", str(reports), "--db", local_db_url,
        ]
    )  # fmt: skip
    doc = json.loads((reports / "gate.json").read_text())
    assert code == (0 if doc["passed"] else 1)
    assert doc["compare"]["cases_total"] == 2 and doc["compare"]["stopped_because"]
    assert "(sequential" in (reports / "gate.md").read_text()
    errors = [r.error for r in Store(local_db_url).results(doc["compare"]["run_id"]) if r.error]
    assert not errors, errors

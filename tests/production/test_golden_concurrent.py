"""Issue 46, "Lost": two ``arena golden add --from-shadow`` at once both said "added" and the
file gained one case (each read the file, added its case, and the later save overwrote the
earlier). Golden edits now read, edit and save under a lock of the file's folder. Two real
processes: each stops after reading, just before saving, until the other has read too (or a
few seconds pass: with the lock, the other cannot read before the first has saved)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.cli import main
from arena.cli.common import default_dataset
from arena.golden import load_dataset
from tests.production.helpers import trace_rows, write_jsonl
from tests.production.scripted import register_models, variant_file

pytestmark = pytest.mark.system  # real processes through the CLI

#: A child: ``arena golden add ...`` whose save first meets the other child (after both read).
CHILD = """
import os, sys, time
from pathlib import Path
import arena.production._golden as golden
from arena.cli import main

meet = Path(sys.argv[1])
original = golden.save_edit

def save_after_the_other_read(*args, **kwargs):
    (meet / f"read-{os.getpid()}").touch()
    waited = 0.0
    while len(list(meet.glob("read-*"))) < 2 and waited < 4.0:
        time.sleep(0.05)
        waited += 0.05
    return original(*args, **kwargs)

golden.save_edit = save_after_the_other_read
sys.exit(main(sys.argv[2:]))
"""


def test_two_processes_adding_at_once_both_land(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    register_models()
    rows = trace_rows(2, answer="GOOD answer")
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    traces = write_jsonl(tmp_path / "prod.jsonl", rows)
    argv = ["shadow", "--traces", traces, "--candidate", variant_file(tmp_path, "c", "worse"),
            "--judge", "fake:prefers-good/text", "--db", db, "--json"]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    dataset = tmp_path / "golden.json"
    shutil.copy(default_dataset(), dataset)
    before = {c.id for c in load_dataset(dataset).test_cases}
    meet = tmp_path / "meet"
    meet.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}

    def add(case: str) -> subprocess.Popen[str]:
        argv = ["golden", "add", "--from-shadow", "1", "--cases", case, "--dataset",
                str(dataset), "--reason", "lost", "--category", "happy_path",
                "--db", db]  # fmt: skip
        return subprocess.Popen(
            [sys.executable, "-c", CHILD, str(meet), *argv],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    children = [add("t0"), add("t1")]
    outs = [child.communicate(timeout=240) for child in children]
    assert [child.returncode for child in children] == [0, 0], outs
    after = load_dataset(dataset)
    new = [c for c in after.test_cases if c.id not in before]
    assert sorted(c.notes.split()[3] for c in new) == ["t0", "t1"]  # both cases landed
    assert len({c.id for c in new}) == 2
    shipped = json.loads(Path(default_dataset()).read_text()).get("changelog", [])
    assert len(json.loads(dataset.read_text())["changelog"]) == len(shipped) + 2  # two edits

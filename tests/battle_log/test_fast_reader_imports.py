"""The battle-log fast path stays free of pandas (pyarrow's to_numpy would import it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.system


def test_the_fast_path_does_not_import_pandas(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    rows = [{"model_a": "x", "model_b": "y", "winner": "tie", "question_id": i} for i in range(5)]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    code = (
        "import sys; from pathlib import Path; from arena.battle_log.fast_reader import read_fast;"
        f"assert read_fast(Path({str(path)!r}), ()) is not None; print('pandas' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"

"""`arena gate --user-model` reaches the run: the gate's run options carry it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena.project._config import config_from_dict
from arena.runner import RunOptions
from arena.storage import Store

pytestmark = pytest.mark.unit


class _Stop(Exception):
    pass


def test_the_gate_runs_with_its_user_model(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import arena.runner

    seen: list[RunOptions] = []

    def capture(store: Any, dataset: Any, variants: Any, options: RunOptions) -> Any:
        seen.append(options)
        raise _Stop

    monkeypatch.setattr(arena.runner, "run_suite", capture)
    variant = tmp_path / "v.yaml"
    variant.write_text("name: v\nmodel: {spec: 'fake:v'}\n")
    config = config_from_dict(
        {"run": {"user_model": "fake:user", "tier": "all"}, "compare": {"judge": "none"}},
        base_dir=str(tmp_path),
    )
    from arena.gate._pipeline import run_gate

    with pytest.raises(_Stop):
        run_gate(store, config, str(variant), str(variant), progress=False)
    assert [o.user_model for o in seen] == ["fake:user"]

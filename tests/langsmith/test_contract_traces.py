"""Contract test: with LangSmith tracing on, `arena run` (a real subprocess) sends traces whose
root runs carry the arena's ids (run id, variant and version hash, case, repeat) as metadata and
tags; recorded by the LangSmith look-alike on 127.0.0.1 and checked with the SDK's schemas."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from langsmith import schemas as ls

from arena.variants.variant import load_variant
from tests.langsmith.fake_langsmith import FakeLangSmith
from tests.support.cli_args import arena_command, run_argv

pytestmark = pytest.mark.system
ROOT = Path(__file__).resolve().parents[2]


def test_traces_carry_the_arena_ids(tmp_path: Path, fake_langsmith: FakeLangSmith) -> None:
    dataset = tmp_path / "golden.json"
    dataset.write_text(
        json.dumps(
            {
                "name": "traced",
                "available_tools": [],
                "test_cases": [
                    {"id": "T-1", "input": "Say hello", "category": "happy_path"},
                    {"id": "T-2", "input": "Say bye", "category": "happy_path"},
                ],
            }
        )
    )
    variant = tmp_path / "echo.yaml"
    variant.write_text("name: echo\nmodel: {spec: 'fake:echo'}\ntools: []\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_"))}
    env.update(
        {
            "LANGSMITH_TRACING": "true",
            "LANGSMITH_ENDPOINT": fake_langsmith.url,
            "LANGSMITH_API_KEY": "lsv2-test-key",
            "LANGSMITH_PROJECT": "arena-traces",
            "ARENA_SANDBOX_DIR": str(tmp_path / "sb"),
            "PYTHONPATH": str(ROOT),
        }
    )
    proc = subprocess.run(
        arena_command(
            *run_argv(
                variant, dataset, f"sqlite:///{tmp_path / 'arena.db'}", "--repeats", "2", "--json"
            )
        ),
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    run_id = json.loads(proc.stdout)["run_id"]
    version = load_variant(variant).version_hash
    roots = [ls.Run(**r) for r in fake_langsmith.runs().values() if not r.get("parent_run_id")]
    seen = set()
    for root in roots:
        assert root.name.startswith("echo:T-")
        meta = root.metadata
        case, repeat = root.name.split(":")[1], meta["repeat"]
        assert meta["arena_run_id"] == run_id and meta["variant"] == "echo"
        assert meta["variant_hash"] == version and meta["case_id"] == case
        assert {
            f"arena-run:{run_id}",
            "variant:echo",
            f"version:{version}",
            f"case:{case}",
            f"repeat:{repeat}",
        } <= set(root.tags or [])
        seen.add((case, repeat))
    assert seen == {("T-1", 0), ("T-1", 1), ("T-2", 0), ("T-2", 1)}
    # the model calls are traced too, inside each root
    children = [r for r in fake_langsmith.runs().values() if r.get("parent_run_id")]
    assert children and all(ls.Run(**c).trace_id in {r.id for r in roots} for c in children)

"""An outside package adds one extension of each kind through entry points only, and every
command uses them: --help lists them, run, score, the gate, judge and ratings use them."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.conftest import ROOT, plugin_env

pytestmark = pytest.mark.system  # end to end through real CLI processes

PLUGINS = {
    "model providers": "parrot",
    "judge modes": "shorter",
    "rating methods": "wins",
    "golden checks": "max_words",
    "agent architectures": "parrot-agent",
    "report formats": "csv",
}


def _arena(env: dict[str, str], *args: str, code: int = 0) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == code, f"arena {' '.join(args)}: {done.returncode}\n{done.stderr}"
    return done.stdout


def _files(folder: Path) -> tuple[Path, list[Path]]:
    cases = [
        {
            "id": "P-1",
            "input": "say hello to everyone",  # parrot: 7 words, echo: 6 words
            "category": "happy_path",
            "tier": "critical",
            "expected_output_contains": ["hello"],
            "expected_output_max_words": 6,
        },
        {
            "id": "P-2",
            "input": "say goodbye",
            "category": "happy_path",
            "tier": "critical",
            "expected_output_contains": ["goodbye"],
            "expected_output_max_words": 6,
        },
    ]
    dataset = folder / "golden.json"
    dataset.write_text(json.dumps({"name": "p", "available_tools": [], "test_cases": cases}))
    variants = []
    for name, spec in (("echo", "fake:echo"), ("parrot", "parrot:any")):
        path = folder / f"{name}.yaml"
        path.write_text(f"name: {name}\nagent: parrot-agent\nmodel: {{spec: '{spec}'}}\n")
        variants.append(path)
    return dataset, variants


def test_help_lists_each_plugin_with_its_summary(plugin_dir: Path) -> None:
    text = _arena(plugin_env(plugin_dir), "--help")
    for kind, name in PLUGINS.items():
        section = re.split(r"\n  (?=\S)", text.split(f"  {kind} (agent_arena.")[1])[0]
        assert f"    {name} " in section and "(a plugin's" in text


def test_every_command_uses_the_plugins(plugin_dir: Path, tmp_path: Path) -> None:
    env = plugin_env(plugin_dir)
    db = ["--db", f"sqlite:///{tmp_path / 'arena.db'}"]
    dataset, variants = _files(tmp_path)
    run: dict[str, Any] = json.loads(
        _arena(
            env, "run", "--variants", *map(str, variants), "--dataset", str(dataset), "--json", *db
        )
    )
    outputs = {(r["variant"], r["case_id"]): r["output"] for r in run["results"]}
    assert outputs[("parrot", "P-1")] == "The parrot says: say hello to everyone"
    assert outputs[("echo", "P-1")] == "You said: say hello to everyone"

    assert _arena(env, "score", "--format", "csv", *db).splitlines() == [
        "variant,cases,passed",
        "echo,2,2",
        "parrot,2,1",
    ]
    scores = json.loads(_arena(env, "score", "--json", *db))
    failed = next(c for c in scores["cases"] if c["variant"] == "parrot" and not c["passed"])
    assert failed["fail_reasons"][0] == {
        "text": "output too long: 7 words",
        "check": "max_words",
        "kind": "output",
        "hard": True,
    }

    _arena(env, "baseline", "save", "echo", *db)
    gate = json.loads(
        _arena(env, "check", "--candidate", "parrot", "--baseline", "echo", "--json", *db, code=1)
    )
    broken = [r for r in gate["regression"]["reasons"] if r["case_id"] == "P-1"]
    assert broken and broken[0]["kind"] == "output"
    assert broken[0]["check"].startswith("output too long: 7 words")

    judged = json.loads(_arena(env, "judge", "--judge", "parrot:j/shorter", "--json", *db))
    winners = {
        b["variant_a" if b["winner"] == "model_a" else "variant_b"] for b in judged["battles"]
    }
    assert len(judged["battles"]) == 2 and winners == {"echo"}  # the shorter answer, both cases

    board = json.loads(_arena(env, "ratings", "--method", "wins", "--json", *db))
    entries = {e["variant"]: e for e in board["entries"]}
    assert board["method"] == "wins" and entries["echo"]["rating"] > entries["parrot"]["rating"]


def test_the_plugin_imports_nothing_of_agent_arena_but_arena_extend() -> None:
    package = ROOT / "tests" / "plugin_package" / "arena_test_plugin"
    imported = set()
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    ours = {name for name in imported if name.split(".")[0] in ("arena", "judges")}
    assert ours == {"arena.extend"}

"""benchmarks/ is one suite: listed and run by ``python -m benchmarks``, importing itself as a
package (no ``sys.path`` edit, no import cycle) and the arena by its public names."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import BENCHMARKS, TOOLS
from benchmarks.common import STAMP_KEYS, git_commit

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "benchmarks"
#: The private modules a benchmark may import, and why no public name serves.
PRIVATE_ALLOWED = {
    # wraps the bootstrap's inner solve to count Newton steps
    "arena.ratings._sparse_newton",
    # the gate's layer, above the statistics face that would have to re-export them
    "arena.sequential._critical",
    "arena.compare.sequential._sequence",
    # the readers of one sequential look, timed with and without the look's scores snapshot
    "arena.compare.sequential._trace",
    # starts (and times) the local model's server apart from the answers
    "arena.models._fake_files",
    "arena.models._local_server",
    # forgets the imports remembered by content, to time the agent's version without them
    "arena.factories._fingerprint",
}


def _modules() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(SUITE.glob("*.py"))}


def _imports(tree: ast.Module) -> list[str]:
    """Every module a file imports, at any depth (``from a import b`` as ``a`` and ``a.b``)."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # as from a fresh clone
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.system  # a subprocess
def test_list_names_every_runnable_module_with_its_summary() -> None:
    done = _run("--list")
    assert done.returncode == 0, done.stderr
    runnable = {
        name
        for name, tree in _modules().items()
        if any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body)
    } - {"__main__"}
    assert runnable == set(BENCHMARKS + TOOLS)
    lines = {line.split()[0]: line for line in done.stdout.splitlines() if line.startswith("  ")}
    assert set(lines) == runnable
    assert "Bradley-Terry" in lines["ratings_bench"]
    assert all(len(line.split(maxsplit=1)) == 2 for line in lines.values())


def test_an_unknown_benchmark_is_refused_with_the_way_to_list_them() -> None:
    from benchmarks.__main__ import main

    assert main(["no_such_bench"]) == 2


def test_no_file_edits_sys_path() -> None:
    edits = [
        f"{name}.py:{node.lineno}"
        for name, tree in _modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "path"
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    ]
    assert edits == []


def test_the_suite_imports_itself_as_a_package_and_has_no_cycle() -> None:
    modules = _modules()
    bare = [
        f"{name}: import {target}"
        for name, tree in modules.items()
        for target in _imports(tree)
        if target in modules
    ]
    assert bare == [], "a sibling imported as a top-level module (needs a sys.path edit)"
    graph = {
        name: {t.split(".")[1] for t in _imports(tree) if t.startswith("benchmarks.")}
        & set(modules)
        for name, tree in modules.items()
    }
    assert _cycle(graph) is None, _cycle(graph)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph``, or None."""
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for other in sorted(graph.get(node, ())):
            if state.get(other) == 1:
                return [*path, node, other]
            if other not in state and (found := visit(other, [*path, node])):
                return found
        state[node] = 2
        return None

    return next((c for n in sorted(graph) if n not in state and (c := visit(n, []))), None)


def test_the_cycle_finder_finds_the_old_circle() -> None:
    old = {"ratings_bench": {"ratings_queries"}, "ratings_queries": {"ratings_bench"}}
    assert _cycle(old) == ["ratings_bench", "ratings_queries", "ratings_bench"]
    assert _cycle({"ratings_bench": {"ratings_queries"}, "ratings_queries": set()}) is None


def test_private_arena_modules_only_where_no_public_name_serves() -> None:
    private = set()
    for tree in _modules().values():
        for target in _imports(tree):
            parts = target.split(".")
            hidden = [i for i, part in enumerate(parts) if part.startswith("_")]
            if parts[0] in ("arena", "judges") and hidden:
                private.add(".".join(parts[: hidden[0] + 1]))
    assert private <= PRIVATE_ALLOWED, sorted(private - PRIVATE_ALLOWED)


def test_one_battle_simulation() -> None:
    simulators = [
        f"{name}.{node.name}"
        for name, tree in _modules().items()
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name in ("simulate", "write_log")
        for inner in ast.walk(node)
        if isinstance(inner, ast.Attribute) and inner.attr == "normal"
    ]
    assert simulators == []


@pytest.mark.system  # a subprocess: the tiny ratings benchmark, a second or two
def test_a_quick_benchmark_emits_its_json_record_with_the_stamp() -> None:
    tiny = ["--battles", "3000", "--models", "5", "--queries", "100", "--rounds", "20"]
    tiny += ["--ref-rounds", "2", "--repeats", "1", "--small-battles", "0"]
    done = _run("ratings_bench", "--json", *tiny)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["benchmark"] == "ratings_bench" and record["argv"] == tiny
    assert tuple(record["stamp"]) == STAMP_KEYS
    assert record["stamp"]["commit"] == git_commit(ROOT)
    assert record["stamp"]["load_after"] is not None and record["peak_rss_gib"] > 0
    assert "3,000 battles, 5 models" in record["output"]
    assert "max |ours - reference|" in record["output"]

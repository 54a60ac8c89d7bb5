"""The import graph: no cycles, and every import points down the documented layer order.

Every import counts: module level, inside functions and under ``TYPE_CHECKING`` (walked with
``ast``, nothing is imported). ``from package import name`` is an edge to ``package.name``
when that is a module, otherwise to the package. The order is documented in
``docs/extending.md``; a module may import its own layer and the layers below it.
"""

from __future__ import annotations

import ast
from fnmatch import fnmatch
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[1]

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "foundations",
        (
            "arena.errors",
            "arena.registry",
            "arena.defaults",
            "arena.paths",
            "arena.secrets",
            "arena.vocabulary",
            "arena.input_files",
            "arena.input_scan",
            "arena.linear_regex",
            "arena.log_rows",
            "arena.style_counts",
            "arena.records",
            "arena.provenance",
        ),
    ),
    ("ratings", ("arena.ratings", "arena.ratings.*", "arena.sequential", "arena.sequential.*")),
    ("models", ("arena.models", "arena.models.*")),
    ("golden records", ("arena.golden", "arena.golden.models", "arena.golden.loader")),
    ("scoring", ("arena.scoring", "arena.scoring.*")),
    ("judges", ("judges", "judges.*")),
    (
        "judging records",
        (
            "arena.judging.accuracy",
            "arena.judging.agreement",
            "arena.judging.battle",
            "arena.judging.calibration",
            "arena.judging.checklist_view",
            "arena.judging.combinations",
            "arena.judging.health",
            "arena.judging.pairing",
            "arena.judging.requests",
            "arena.judging.votes",
        ),
    ),
    ("agent tools", ("arena.agents.research", "arena.agents.research.*")),
    (
        "agent factories",
        (
            "arena.agents.declare",
            "arena.agents.imports",
            "arena.agents.factories",
            "arena.agents.fingerprint",
        ),
    ),
    ("variants", ("arena.variant_version", "arena.variants")),
    ("storage", ("arena.storage", "arena.storage.*")),
    ("evaluation", ("arena.evaluate",)),
    ("judging", ("arena.judging", "arena.judging.*")),
    ("agents", ("arena.agents", "arena.agents.*")),
    ("runner", ("arena.runner", "arena.runner.*", "arena.plan", "arena.plan.*", "arena.outputs*")),
    ("executors", ("arena.executors", "arena.executors.*")),
    (
        "battles and ratings",
        ("arena.rating_inputs", "arena.battle_log", "arena.battle_log.*", "arena.leaderboard"),
    ),
    ("golden tools", ("arena.golden.*",)),
    ("reports", ("arena.reports.format", "arena.reports.markdown", "arena.reports.render")),
    (
        "gate and comparisons",
        ("arena.gate", "arena.gate.*", "arena.compare", "arena.sequential_runs*"),
    ),
    ("report formats", ("arena.reports", "arena.reports.*")),
    ("langsmith", ("arena.langsmith", "arena.langsmith.*")),
    ("app", ("arena.app", "arena.app.*")),
    ("cli", ("arena.cli", "arena.cli.*", "arena.schemas")),
    ("package", ("arena",)),
)
"""Bottom to top; a module's layer is the first whose patterns match its name."""


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for top in ("arena", "judges"):
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _owner(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path) -> set[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(o for a in node.names if (o := _owner(a.name)))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                owner = full if full in MODULES else _owner(base)
                if owner:
                    found.add(owner)
    found.discard(module)
    return found


GRAPH = {module: _imports(module, path) for module, path in MODULES.items()}


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the module's layer."""
    for index, (_, patterns) in enumerate(LAYERS):
        if any(fnmatch(module, p) for p in patterns):
            return index
    raise AssertionError(f"{module} is in no layer: add it to LAYERS (and docs/extending.md)")


def _cycles() -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(GRAPH[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    return found


def test_the_walk_sees_every_kind_of_import() -> None:
    # module level, function level and TYPE_CHECKING imports are all edges
    assert "arena.registry" in GRAPH["arena.models.config"]
    assert "arena.gate.rules" in GRAPH["arena.gate.baselines"]
    assert "arena.ratings.options" in GRAPH["arena.ratings.methods"]  # TYPE_CHECKING only
    assert "arena.storage" in GRAPH["arena.judging.voting"]  # inside a function


def test_no_import_cycles() -> None:
    assert _cycles() == []


def test_every_import_points_down_the_layers() -> None:
    against = [
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {other} ({LAYERS[layer_of(other)][0]})"
        for module, others in sorted(GRAPH.items())
        for other in sorted(others)
        if layer_of(other) > layer_of(module)
    ]
    assert against == [], "\n".join(against)

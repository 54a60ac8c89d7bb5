"""The import graph: no cycles, and every import points down the documented layer order.

Every import counts: module level, inside functions and under ``TYPE_CHECKING`` (walked with
``ast``, nothing is imported). ``from package import name`` is an edge to ``package.name``
when that is a module, otherwise to the package. The order is written once, in
``docs/architecture.yaml`` (rendered as the docs' Architecture page); a module may import its
own layer and the layers below it.
"""

from __future__ import annotations

import ast
import re
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[1]

ARCHITECTURE = yaml.safe_load((ROOT / "docs" / "architecture.yaml").read_text())

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = tuple(
    (layer["name"], tuple(layer["modules"])) for layer in ARCHITECTURE["layers"]
)
"""Bottom to top; a module's layer is the first whose patterns match its name (written once,
in ``docs/architecture.yaml``)."""


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


_STRING_PATH = re.compile(r"^((?:arena|judges)(?:\.\w+)+|(?:arena|judges)(?=:))(?::[\w.]+)?$")
"""A string naming a module (``arena.pkg.module``) or an attribute (``judges.x:Name``): an
import made at run time (a lazy export table, an import path), so an edge like any import."""


def _string_paths(tree: ast.AST) -> set[str]:
    """The modules of this project that the string constants of ``tree`` name exactly."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            named = _STRING_PATH.match(node.value)
            if named and named.group(1) in MODULES:
                found.add(named.group(1))
    return found


def _imports(module: str, path: Path) -> set[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = _string_paths(tree)
    for node in ast.walk(tree):
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


@cache
def graph() -> dict[str, set[str]]:
    """Each module's edges to the other library modules, parsed when a test first asks (not
    while every session collects this file)."""
    return {module: _imports(module, path) for module, path in MODULES.items()}


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the module's layer."""
    for index, (_, patterns) in enumerate(LAYERS):
        if any(fnmatch(module, p) for p in patterns):
            return index
    raise AssertionError(f"{module} is in no layer: add it to docs/architecture.yaml")


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
        for other in sorted(graph()[node]):
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

    for node in sorted(graph()):
        if node not in index:
            visit(node)
    return found


def test_the_walk_sees_every_kind_of_import() -> None:
    # module level, function level and TYPE_CHECKING imports are all edges
    assert "arena.models.providers._registry" in graph()["arena.models._config"]
    assert "arena.gate._rules" in graph()["arena.gate._baselines"]
    assert "arena.ratings._options" in graph()["arena.ratings._methods"]  # TYPE_CHECKING only
    assert "arena.storage" in graph()["arena.votes._ballots"]  # inside a function


def test_a_module_path_written_as_a_string_is_an_edge() -> None:
    # an import path in a string is an import made at run time: the layer rules see it
    tree = ast.parse('LAZY = {"A": "arena.golden._models", "B": "judges._types:JudgeSpec"}')
    assert _string_paths(tree) == {"arena.golden._models", "judges._types"}
    prose = ast.parse('NOT = ("arena.yaml", "arena", "see arena.golden", "arena.golden.nope")')
    assert _string_paths(prose) == set()


def test_no_import_cycles() -> None:
    assert _cycles() == []


def test_every_import_points_down_the_layers() -> None:
    against = [
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {other} ({LAYERS[layer_of(other)][0]})"
        for module, others in sorted(graph().items())
        for other in sorted(others)
        if layer_of(other) > layer_of(module)
    ]
    assert against == [], "\n".join(against)


def _documented_packages() -> set[str]:
    return {name.strip() for entry in ARCHITECTURE["packages"] for name in entry["name"].split(",")}


def test_every_package_and_root_module_is_in_the_where_things_live_table() -> None:
    top = {m for m in MODULES if m.count(".") == 1 and m.startswith("arena.")}
    assert top - _documented_packages() == set()
    assert "judges" in _documented_packages()


def test_the_root_of_arena_holds_only_its_face_and_the_foundations() -> None:
    faces = {"__init__", "__main__", "extend"}  # the package, and its extension surface
    root_modules = {p.stem for p in (ROOT / "arena").glob("*.py")} - faces
    foundations = {m for m in ARCHITECTURE["layers"][0]["modules"] if m.count(".") == 1}
    assert {f"arena.{name}" for name in root_modules} <= foundations


def test_every_layer_pattern_names_a_module() -> None:
    # a pattern left behind by a move or a deletion is a stale line on the docs page
    stale = [
        pattern
        for _, patterns in LAYERS
        for pattern in patterns
        if not any(fnmatch(module, pattern) for module in MODULES)
    ]
    assert stale == []


def _package_of(module: str) -> str:
    path = MODULES[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def test_no_package_spans_two_layers() -> None:
    # a folder is one concept on one layer: its modules (its __init__ included) share a layer;
    # the root of `arena` is its face over the foundations, and a sub-package is a package
    layers: dict[str, set[str]] = {}
    for module in MODULES:
        package = _package_of(module)
        if package != "arena":
            layers.setdefault(package, set()).add(LAYERS[layer_of(module)][0])
    spread = {package: sorted(names) for package, names in layers.items() if len(names) > 1}
    assert spread == {}


JUDGES_MAY_IMPORT = (
    "arena.errors",
    "arena.registry",
    "arena.vocabulary",
    "arena.defaults",
    "arena.secrets",
    "arena.inputs",
    "arena.records",
    "arena.golden",
    "arena.models",
    "arena.scoring",
)


def test_judges_depend_on_core_types_only() -> None:
    # judges/ is a layer of its own: how one pair is judged, never how runs are run or stored
    outside = sorted(
        f"{module} imports {other}"
        for module, others in graph().items()
        if module == "judges" or module.startswith("judges.")
        for other in others
        if other.startswith("arena")
        and not any(other == ok or other.startswith(ok + ".") for ok in JUDGES_MAY_IMPORT)
    )
    assert outside == []


MOST_LAYERS = 8
"""A few named layers, so that the order says something a reader can use."""


def _package_pattern(pattern: str) -> str:
    """The package a layer pattern lists: ``pkg`` for ``pkg`` and for ``pkg.*``."""
    return pattern.removesuffix(".*")


def test_a_few_layers_each_listing_whole_packages() -> None:
    # a top-level package (`pkg` and `pkg.*`, both) or a root module of `arena`; never a
    # sub-package, whose siblings would then live on another layer
    assert len(LAYERS) <= MOST_LAYERS, [name for name, _ in LAYERS]
    partial = []
    for name, patterns in LAYERS:
        for pattern in patterns:
            package = _package_pattern(pattern)
            top = package == "judges" or (package.count(".") == 1 and package.startswith("arena."))
            is_package = package in MODULES and MODULES[package].name == "__init__.py"
            # the root `arena` is the package's face: its sub-packages are packages of their own
            whole = package == "arena" or (
                top
                and package in MODULES
                and (not is_package or {package, f"{package}.*"} <= set(patterns))
            )
            if not whole:
                partial.append(f"{name}: {pattern}")
    assert partial == []


def test_no_package_is_listed_on_two_layers() -> None:
    # a pattern naming a sub-package (`arena.agents.research`) counts for its top package
    where: dict[str, set[str]] = {}
    for name, patterns in LAYERS:
        for pattern in patterns:
            top = ".".join(_package_pattern(pattern).split(".")[:2])
            where.setdefault("judges" if top.startswith("judges") else top, set()).add(name)
    assert {package: sorted(names) for package, names in where.items() if len(names) > 1} == {}


def test_every_layer_imports_the_layer_below_it() -> None:
    # two adjacent layers neither of which imports the other are one layer in two names
    below = [
        f"{LAYERS[index][0]} imports nothing of {LAYERS[index - 1][0]}"
        for index in range(1, len(LAYERS))
        if not any(
            layer_of(module) == index and layer_of(other) == index - 1
            for module, others in graph().items()
            for other in others
        )
    ]
    assert below == []

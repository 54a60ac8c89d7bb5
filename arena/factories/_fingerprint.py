"""What an agent's code is: a content hash of every file that decides how it answers.

A variant's version (``arena.variants.version``) includes this, so editing an agent's code
re-runs it instead of reusing stored results:

- a factory (``agent: shopbot.agent:build``, or a registered architecture): every file of the
  top-level package (or module) that holds it, and of every package of the same project it
  imports, followed through the imports statically (``import`` statements read with ``ast``,
  nothing is executed), so the result does not depend on what else a process imported;
  installed third-party packages and the standard library are not followed (their versions
  belong to the environment, see docs/gate.md);
- the built-in agent (``react``, ``supervisor``): its package, ``arena.agents.research``, the
  sandbox its ``write_file`` writes through (``arena.sandbox``, whose messages the model
  reads), and the corpus its tools read;
- the tools a variant enables: name, description, argument schema and source.

Files are named by their path relative to the folder holding the top-level package, e.g.
``shopbot/agent.py``, so a report can say which file changed.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import json
import sys
import sysconfig
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import InputError

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

MAX_FILES = 5_000
"""More files than this in an agent's packages is refused: it is not an agent's code."""
SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", ".git", ".venv", "venv"})
SKIPPED_SUFFIXES = (".pyc", ".pyo")
BUILTIN_PACKAGES = ("arena.agents.research", "arena.sandbox")
"""The built-in agent's code: its package, and the runner's sandbox module its tools write
through (a package or a module each)."""


def file_digest(path: Path) -> str:
    """The first 16 hex digits of the sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def text_digest(value: Any) -> str:
    """The first 16 hex digits of the sha256 of a JSON-serialisable value."""
    blob = json.dumps(value, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _environment_roots() -> list[Path]:
    paths = sysconfig.get_paths()
    roots = {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
    roots.update({sys.prefix, sys.base_prefix, sys.exec_prefix})
    return [Path(r).resolve() for r in roots if r]


def _installed(path: Path, environment: Sequence[Path]) -> bool:
    """True for files of the Python installation (stdlib, site-packages)."""
    return any(path.is_relative_to(root) for root in environment) or any(
        part in ("site-packages", "dist-packages") for part in path.parts
    )


def _location(top: str) -> tuple[Path, Path] | None:
    """(folder holding ``top``, the package folder or module file); None if not found."""
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        folder = Path(next(iter(spec.submodule_search_locations))).resolve()
        return folder.parent, folder
    if spec.origin and spec.origin not in ("built-in", "frozen"):
        file = Path(spec.origin).resolve()
        return file.parent, file
    return None


def _files(target: Path) -> Iterable[Path]:
    if target.is_file():
        yield target
        return
    for path in sorted(target.rglob("*")):
        inside = path.relative_to(target).parts
        if any(p in SKIPPED_DIRS or p.startswith(".") for p in inside[:-1]):
            continue
        if path.is_file() and not path.name.startswith(".") and path.suffix not in SKIPPED_SUFFIXES:
            yield path


_IMPORTS_BY_CONTENT: dict[str, frozenset[str]] = {}
"""A file's imported names by the sha256 of its bytes: a file is parsed again only when its
content changed (an edit is always seen; the same content is never parsed twice)."""
MAX_REMEMBERED = 50_000


def _imported_tops(path: Path) -> frozenset[str]:
    """Top-level names of the absolute imports in a Python file (unparsable: none)."""
    source = path.read_bytes()
    key = hashlib.sha256(source).hexdigest()
    found = _IMPORTS_BY_CONTENT.get(key)
    if found is None:
        found = _parse_imports(source, path)
        if len(_IMPORTS_BY_CONTENT) >= MAX_REMEMBERED:
            _IMPORTS_BY_CONTENT.clear()
        _IMPORTS_BY_CONTENT[key] = found
    return found


def _parse_imports(source: bytes, path: Path) -> frozenset[str]:
    try:
        tree = ast.parse(source, str(path))
    except (SyntaxError, ValueError):
        return frozenset()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return frozenset(found)


def package_files(module: str, *, follow_imports: bool = True) -> dict[str, str]:
    """Hash every file of ``module``'s top-level package and (``follow_imports``) of the
    project-local packages it imports, transitively; ``{relative path: digest}``.

    A package of the Python installation is hashed when it holds the agent itself but never
    followed into; ``arena`` and ``judges`` are never followed into either.
    """
    code = {
        path.relative_to(base).as_posix(): file_digest(path)
        for base, _, path in _walk(module, follow_imports)
    }
    return dict(sorted(code.items()))


def package_targets(module: str) -> list[Path]:
    """The package folders and module files :func:`package_files` hashes for ``module``
    (its own top-level package and the project-local ones it imports), in the order found."""
    return list(dict.fromkeys(target for _, target, _ in _walk(module, True)))


def _walk(module: str, follow_imports: bool) -> Iterator[tuple[Path, Path, Path]]:
    """(folder holding the top-level package, package folder or module file, file) for every
    file of the agent's code (:func:`package_files`)."""
    environment = _environment_roots()
    todo, seen = [module.split(".")[0]], set()
    local: dict[str, bool] = {}  # imported name -> project-local, looked up once per walk
    count = 0
    while todo:
        top = todo.pop()
        if top in seen:
            continue
        seen.add(top)
        found = _location(top)
        if found is None:
            continue
        base, target = found
        for path in _files(target):
            count += 1
            if count > MAX_FILES:
                raise InputError(
                    f"the agent's code ({module}) has more than {MAX_FILES} files: "
                    "keep data and virtual environments out of the agent's package",
                    field="agent",
                )
            yield base, target, path
            if follow_imports and path.suffix == ".py":
                todo.extend(_followed(_imported_tops(path) - seen, environment, local))


def _followed(
    names: Iterable[str], environment: Sequence[Path], known: dict[str, bool]
) -> list[str]:
    """The imported names that are project-local packages (not installed, not ours);
    ``known`` remembers each name's answer for the rest of the walk."""
    return [name for name in sorted(names) if _is_local(name, environment, known)]


def _is_local(name: str, environment: Sequence[Path], known: dict[str, bool]) -> bool:
    if name not in known:
        if name in ("arena", "judges") or name in sys.stdlib_module_names:
            known[name] = False
        else:
            found = _location(name)
            known[name] = found is not None and not _installed(found[1], environment)
    return known[name]


def builtin_agent_files() -> dict[str, str]:
    """The built-in Research Agent's code (:data:`BUILTIN_PACKAGES`) and the corpus its tools
    read."""
    from arena.paths import data_dir

    code: dict[str, str] = {}
    for package in BUILTIN_PACKAGES:
        found = _location(package.split(".")[0])
        assert found is not None
        base = found[0]
        target = base.joinpath(*package.split("."))
        target = target if target.is_dir() else target.with_suffix(".py")
        code.update({p.relative_to(base).as_posix(): file_digest(p) for p in _files(target)})
    corpus = data_dir() / "corpus"
    if corpus.is_dir():
        code.update(
            {
                f"data/{p.relative_to(corpus.parent).as_posix()}": file_digest(p)
                for p in _files(corpus)
            }
        )
    return dict(sorted(code.items()))


def tool_digests(tools: Sequence[BaseTool]) -> dict[str, str]:
    """``{tool name: digest}`` of each tool's name, description, argument schema and source."""
    return {tool.name: text_digest(_tool_identity(tool)) for tool in tools}


def _tool_identity(tool: BaseTool) -> dict[str, Any]:
    func = getattr(tool, "func", None) or getattr(tool, "coroutine", None) or type(tool)
    try:
        source = inspect.getsource(func)
    except (OSError, TypeError):
        source = getattr(func, "__qualname__", repr(func))
    try:
        schema = tool.tool_call_schema.model_json_schema()  # type: ignore[union-attr]
    except Exception:  # a tool whose schema cannot be rendered is still identified by source
        schema = str(tool.args)
    return {"name": tool.name, "description": tool.description, "schema": schema, "source": source}

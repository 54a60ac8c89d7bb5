"""Read user input files (datasets, variants, prompts) without ever crashing on hostile bytes.

Every failure is an :class:`arena.errors.InputError` naming the file: a missing file, a folder
given as a file, a file that is not UTF-8 text or is too large, malformed or too deeply nested
JSON, malformed YAML, and YAML whose aliases expand to more than ``MAX_YAML_NODES`` nodes (a
"billion laughs" bomb of a few hundred bytes would otherwise expand to millions of nodes when
validated or hashed).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from arena.errors import InputError

MAX_INPUT_BYTES = 64_000_000
MAX_YAML_NODES = 100_000
MAX_NESTING = 100

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_text(
    path: str | Path,
    *,
    limit: int = MAX_INPUT_BYTES,
    field: str | None = None,
    label: str | None = None,
) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes.

    ``label`` names the file in errors (default: the path); ``field`` is the field that
    pointed at it (e.g. ``system_prompt_file``), if any.
    """
    file = Path(path)
    name = label or str(file)
    try:
        if file.is_dir():
            raise InputError("is a folder, not a file", file=name, field=field)
        with open(file, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise InputError("no such file", file=name, field=field) from None
    except OSError as exc:
        raise InputError(
            f"cannot read the file: {exc.strerror or exc}", file=name, field=field
        ) from None
    if len(data) > limit:
        raise InputError(f"file too large (limit {limit} bytes)", file=name, field=field)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text (invalid byte at offset {exc.start})", file=name, field=field
        ) from None


def read_log_text(path: str | Path, *, kind: str) -> str:
    """The UTF-8 text of a log file of any size (a battle log, a vote file); ``kind`` names
    what a folder is not, e.g. ``is a directory, not a battle log``."""
    file = str(path)
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", file=file) from None
    except IsADirectoryError:
        raise InputError(f"is a directory, not a {kind}", file=file) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", file=file) from None


def load_json(path: str | Path) -> Any:
    """Parse a JSON file; malformed, too deeply nested or unreadable input is an InputError."""
    file = str(path)
    text = read_text(path)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", file=file
        ) from None
    except RecursionError:
        raise InputError(
            f"JSON nested too deeply (limit {MAX_NESTING} levels)", file=file
        ) from None
    except ValueError as exc:  # e.g. an integer literal with more than 4300 digits
        raise InputError(f"malformed JSON: {exc}", file=file) from None
    if nesting_depth(value) > MAX_NESTING:
        raise InputError(f"JSON nested too deeply (limit {MAX_NESTING} levels)", file=file)
    return value


def load_yaml(path: str | Path, *, limit: int = MAX_INPUT_BYTES) -> Any:
    """Parse a YAML file safely (no tags, no alias bombs, no deep nesting)."""
    return parse_yaml(read_text(path, limit=limit), file=str(path))


def parse_yaml(text: str, *, file: str | None = None) -> Any:
    """Parse YAML text with the safe loader, refusing alias bombs and deep nesting."""
    try:
        return yaml.load(text, Loader=_BoundedLoader)  # a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {exc}", file=file) from None
    except _TooLarge as exc:
        raise InputError(str(exc), file=file) from None
    except RecursionError:
        raise InputError(
            f"YAML nested too deeply (limit {MAX_NESTING} levels)", file=file
        ) from None


def nesting_depth(value: Any) -> int:
    """How deeply lists and dicts nest in ``value`` (a scalar is 0), computed without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children: Any = item.values() if isinstance(item, dict) else item
        if isinstance(item, dict | list | tuple):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_NESTING:
                return deepest
            stack.extend((child, depth + 1) for child in children)
    return deepest


class _TooLarge(Exception):
    """YAML that expands to too many nodes, nests too deeply, or refers to itself."""


class _BoundedLoader(_Loader):  # type: ignore[misc, valid-type]
    """The safe loader, checking the composed node graph before building any Python object."""

    def construct_document(self, node: yaml.Node) -> Any:
        check_expansion(node)
        return super().construct_document(node)


def check_expansion(root: yaml.Node, limit: int = MAX_YAML_NODES) -> int:
    """The number of nodes ``root`` expands to once every alias is copied out (_TooLarge if
    above ``limit``, deeper than MAX_NESTING, or recursive). Linear in the distinct nodes."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            on_path.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in _children(node))
            if sizes[key] > limit:
                raise _TooLarge(
                    f"YAML expands to more than {limit} nodes (aliases repeat "
                    "anchored content); refusing it"
                )
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise _TooLarge("YAML alias refers to itself (recursive structure); refusing it")
        if len(on_path) >= MAX_NESTING:
            raise _TooLarge(f"YAML nested too deeply (limit {MAX_NESTING} levels)")
        on_path.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node))
    return sizes[id(root)]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []

"""Read user input files without ever crashing on hostile bytes: the one safe reading layer.

Every reader of user input goes through here: golden datasets, variants, judge files,
``arena.yaml``, battle logs, vote files and LangSmith example files. Every failure is an
:class:`arena.errors.InputError` naming the file (and the line or row, and the field, where
there is one): a missing file, a folder given as a file, a file that is not UTF-8 text or is
too large, malformed or too deeply nested JSON (a 100,000-level log line is an error, not a
``RecursionError``), a key given twice in one object (JSON or YAML: which value would win is
a guess), ``NaN`` and ``Infinity`` (not JSON; ``.nan``/``.inf`` in YAML), malformed YAML,
and YAML whose aliases expand to more than ``MAX_YAML_NODES`` nodes (a "billion laughs" bomb
of a few hundred bytes would otherwise expand to millions of nodes when validated or hashed).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

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
    """Parse a JSON file (see :func:`parse_json`); unreadable input is an InputError too."""
    return parse_json(read_text(path), file=str(path))


def parse_json(
    text: str, *, file: str | None = None, case: str | None = None, at: str | None = None
) -> Any:
    """Parse JSON text strictly: InputError (naming ``file`` and ``case``, or the place ``at``,
    e.g. ``line 3``) for malformed JSON, nesting deeper than MAX_NESTING, a duplicate key
    (naming it as the field), ``NaN``/``Infinity``, or an integer too long to convert."""
    where = "" if case or at else " at line {line}, column {column}"
    named = {"file": file, "case": case, "at": at}
    twice: list[str] = []
    huge: list[str] = []
    try:
        value = _decoder(twice, huge).decode(text)
    except json.JSONDecodeError as exc:
        detail = where.format(line=exc.lineno, column=exc.colno)
        raise InputError(f"malformed JSON{detail}: {exc.msg}", **named) from None
    except RecursionError:
        raise InputError(_TOO_DEEP.format("JSON"), **named) from None
    except ValueError as exc:  # e.g. an integer literal with more than 4300 digits
        raise InputError(f"malformed JSON: {exc}", **named) from None
    if text.count("[") + text.count("{") > MAX_NESTING and nesting_depth(value) > MAX_NESTING:
        raise InputError(_TOO_DEEP.format("JSON"), **named)
    if twice:
        found = _first(value, lambda item: isinstance(item, _Twice))
        if found is not None:
            raise InputError(_TWICE, **named, field=_path(found[1], found[0].key))
    if "NaN" in text or "Infinity" in text or huge:
        found = _first(value, lambda item: isinstance(item, _NonFinite))
        if found is not None:
            item, field = found
            what = "too large for a number" if item in huge else "not a JSON number"
            message = f"{item} is {what} (write null, or a finite number)"
            raise InputError(message, **named, field=field)
    return value


class JsonRows(NamedTuple):
    """The rows of a log file: ``(number, value)`` each, and whether it was a JSON list
    (numbers are then positions from 1) or JSONL (numbers are line numbers)."""

    rows: list[tuple[int, Any]]
    listed: bool


def read_json_rows(path: str | Path, *, kind: str) -> JsonRows:
    """Every row of a JSONL file (blank lines skipped) or of a file holding one JSON list,
    each parsed by :func:`parse_json`; ``kind`` names the file in errors (``battle log``)."""
    file = str(path)
    text = read_log_text(path, kind=kind)
    if text.lstrip().startswith("["):
        data = parse_json(text, file=file)
        if not isinstance(data, list):  # pragma: no cover - "[" starts a list or an error
            raise InputError(f"a JSON {kind} must hold a list", file=file)
        return JsonRows(list(enumerate(data, 1)), listed=True)
    rows = [
        (number, parse_json(line, file=file, case=f"line {number}"))
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip()
    ]
    return JsonRows(rows, listed=False)


_TOO_DEEP = "{} nested too deeply (limit " + str(MAX_NESTING) + " levels)"


_TWICE = "key given twice in one object (which value counts would be a guess)"


class _Twice(dict[str, Any]):
    """An object with a key given twice (``key``), refused after decoding, by its path."""

    key = ""


def _decoder(twice: list[str], huge: list[str]) -> json.JSONDecoder:
    """A strict decoder: an object with a key given twice decodes to a :class:`_Twice`,
    noted in ``twice``; ``NaN`` and ``Infinity`` to a :class:`_NonFinite`, and so does a
    number too large for a float (``1e400``, which Python reads as infinity), noted in
    ``huge``."""

    def finite(literal: str) -> Any:
        number = float(literal)
        if math.isfinite(number):
            return number
        huge.append(literal)
        return _NonFinite(literal)

    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        value = dict(pairs)
        if len(value) == len(pairs):
            return value
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                found = _Twice(value)
                found.key = key
                twice.append(key)
                return found
            seen.add(key)
        return value  # pragma: no cover - fewer keys than pairs means one came twice

    return json.JSONDecoder(
        object_pairs_hook=unique_keys, parse_constant=_no_constant, parse_float=finite
    )


class _NonFinite(str):
    """What ``NaN``, ``Infinity`` and ``-Infinity`` parse to, found and refused after."""


def _no_constant(name: str) -> Any:
    return _NonFinite(name)


def _path(path: str | None, key: str) -> str:
    return key if path is None else f"{path}.{key}"


def _first(value: Any, wanted: Callable[[Any], bool]) -> tuple[Any, str | None] | None:
    """The first item of ``value`` (in document order) that is ``wanted``, and its dotted
    path (None at the top)."""
    stack: list[tuple[Any, str | None]] = [(value, None)]
    while stack:
        item, path = stack.pop()
        if wanted(item):
            return item, path
        pairs = (
            item.items()
            if isinstance(item, dict)
            else enumerate(item)
            if isinstance(item, list)
            else ()
        )
        stack.extend(reversed([(child, _path(path, str(k))) for k, child in pairs]))
    return None


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
        _check_node(node)
        on_path.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node))
    return sizes[id(root)]


_FLOAT = "tag:yaml.org,2002:float"


def _check_node(node: yaml.Node) -> None:
    """A mapping's keys are distinct; a float is finite (``.nan``/``.inf`` refused)."""
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen: set[tuple[str, str]] = set()
        for key, _ in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value != "<<":
                if (key.tag, key.value) in seen:
                    raise _TooLarge(f"line {key.start_mark.line + 1}: {key.value!r}: {_TWICE}")
                seen.add((key.tag, key.value))
    elif (
        isinstance(node, yaml.ScalarNode)
        and node.tag == _FLOAT
        and (
            any(word in node.value.lower() for word in ("nan", "inf"))  # .nan, -.Inf, ...
            or not _finite_literal(node.value)  # 1.0e+400: too large, read as inf
        )
    ):
        raise _TooLarge(f"line {line}: {node.value} is not a finite number")


def _finite_literal(text: str) -> bool:
    """A YAML float literal that reads as a finite number (``1.0e+400`` does not)."""
    try:
        return math.isfinite(float(text.replace("_", "")))
    except ValueError:
        return True  # a form float() cannot read (sexagesimal 1:30.0): finite when it reads


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []

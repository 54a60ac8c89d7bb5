"""Write an edited JSON document in the layout of the file it was read from, so that a pull
request's diff of a golden set shows the cases added or changed and the version lines, not
the whole file re-indented.

:func:`keep_layout` reads the old text's spans (each object member and array element, with
the text between them), then writes the new document: a value equal to the old one keeps
its old text byte for byte; an object or array whose members changed keeps the old text of
the members that did not (a case appended to ``test_cases`` is the only new text there); a
new value is written with the file's indent (detected), short arrays of numbers and strings
on one line unless the file spreads them over lines. The result parses to the new document,
or the document is written plainly (``json.dumps``, indent 2).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

_SPACE = re.compile(r"\s*")
_DECODER = json.JSONDecoder()
_SHORT = 100  # the longest array of scalars written on one line


@dataclass
class _Span:
    """A value's place in the old text; for an object or array, its members' places and
    the text between them (``gaps[0]`` after the bracket, ``gaps[-1]`` before the close)."""

    start: int
    end: int
    keys: list[str | None] = field(default_factory=list)
    heads: list[int] = field(default_factory=list)  # where each member's text starts
    parts: list[_Span] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)


def _skip(text: str, at: int) -> int:
    found = _SPACE.match(text, at)
    return found.end() if found else at


def _scan(text: str, at: int) -> _Span:
    """The span of the JSON value at ``at`` (whitespace skipped)."""
    at = _skip(text, at)
    opening = text[at : at + 1]
    if opening not in ("{", "["):
        _, end = _DECODER.raw_decode(text, at)
        return _Span(at, end)
    span, closing, pos = _Span(at, at), "}" if opening == "{" else "]", at + 1
    gap_start = pos
    while True:
        pos = _skip(text, pos)
        if text[pos] == closing:
            span.gaps.append(text[gap_start:pos])
            span.end = pos + 1
            return span
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
        span.gaps.append(text[gap_start:pos])
        span.heads.append(pos)
        key = None
        if opening == "{":
            key, pos = _DECODER.raw_decode(text, pos)
            pos = _skip(text, pos) + 1  # the colon
        part = _scan(text, pos)
        span.keys.append(key)
        span.parts.append(part)
        pos = gap_start = part.end


@dataclass
class _Style:
    indent: str
    spread: bool  # arrays of scalars spread over lines, as json.dumps(indent=...) writes them


def _style(text: str, root: _Span) -> _Style:
    first = root.gaps[0] if root.gaps else ""
    indent = first.rsplit("\n", 1)[-1] if "\n" in first else "  "
    spread = re.search(r'\[\s*\n\s*("|-?\d|true|false|null)', text) is not None
    return _Style(indent or "  ", spread)


def _render(value: Any, style: _Style, level: str) -> str:
    """``value`` as new JSON text whose first line starts at indentation ``level``."""
    inner = level + style.indent
    if isinstance(value, dict) and value:
        members = [f"{json.dumps(k, ensure_ascii=False)}: {_render(v, style, inner)}"
                   for k, v in value.items()]  # fmt: skip
        return "{\n" + ",\n".join(inner + m for m in members) + "\n" + level + "}"
    if isinstance(value, list) and value:
        flat = json.dumps(value, ensure_ascii=False)
        scalars = not any(isinstance(item, dict | list) for item in value)
        if scalars and not style.spread and len(flat) <= _SHORT:
            return flat
        items = [_render(item, style, inner) for item in value]
        return "[\n" + ",\n".join(inner + item for item in items) + "\n" + level + "]"
    return json.dumps(value, ensure_ascii=False)


def _line_indent(text: str, at: int) -> str:
    line = text[text.rfind("\n", 0, at) + 1 : at]
    return line[: len(line) - len(line.lstrip())]


def _write(text: str, span: _Span, old: Any, new: Any, style: _Style) -> str:
    """``new`` as text, keeping the old text of every part equal to ``old``'s."""
    if old == new and type(old) is type(new):
        return text[span.start : span.end]
    level = _line_indent(text, span.start)
    both_objects = isinstance(old, dict) and isinstance(new, dict) and span.keys
    both_arrays = isinstance(old, list) and isinstance(new, list) and span.parts
    if not (both_objects or both_arrays):
        return _render(new, style, level)
    if both_objects:
        where = {key: index for index, key in enumerate(span.keys)}
        olds = [(where.get(k), old.get(k), k) for k in new]
        pairs = [(where.get(k), v) for k, v in new.items()]
    else:
        olds = [(i if i < len(old) else None, old[i] if i < len(old) else None, None)
                for i in range(len(new))]  # fmt: skip
        pairs = [(index, value) for (index, _, _), value in zip(olds, new, strict=True)]
    between = Counter(span.gaps[1:-1]).most_common(1)
    sep = between[0][0] if between else ",\n" + level + style.indent
    body: list[str] = []
    gaps = [span.gaps[0]]
    previous: int | None = None
    for (index, value), (_, before, key) in zip(pairs, olds, strict=True):
        if body:  # the old separator where two old members stay neighbours
            kept = index is not None and previous is not None and index == previous + 1
            gaps.append(span.gaps[index] if kept and index is not None else sep)
        previous = index
        if index is None:
            head = "" if key is None else f"{json.dumps(key, ensure_ascii=False)}: "
            body.append(head + _render(value, style, _gap_indent(sep, level, style)))
            continue
        part = span.parts[index]
        head = text[span.heads[index] : part.start]  # the key and colon as written
        body.append(head + _write(text, part, before, value, style))
    gaps.append(span.gaps[-1])
    close = "}" if both_objects else "]"
    out = [text[span.start]]
    for gap, member in zip(gaps, body, strict=False):
        out += [gap, member]
    return "".join(out) + gaps[-1] + close if body else text[span.start] + close


def _gap_indent(sep: str, level: str, style: _Style) -> str:
    return sep.rsplit("\n", 1)[-1] if "\n" in sep else level + style.indent


def keep_layout(old_text: str, new: Any) -> str:
    """``new`` as JSON text in the layout of ``old_text`` (see the module doc), ending in a
    newline."""
    plain = json.dumps(new, indent=2, ensure_ascii=False) + "\n"
    try:
        old = json.loads(old_text)
        root = _scan(old_text, 0)
        text = _write(old_text, root, old, new, _style(old_text, root))
    except (ValueError, IndexError, TypeError):
        return plain
    text = old_text[: root.start] + text + "\n"
    try:
        same = json.loads(text) == new
    except ValueError:
        same = False
    return text if same else plain

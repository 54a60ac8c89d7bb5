"""Regular expressions on untrusted text in linear time (RE2), with Python's meaning.

Golden regexes run on model output, the least trusted text in the system. Python's ``re``
backtracks: ``(\\w+\\s?)+\\.`` on a nine-word answer without a final period runs for
minutes. RE2 (``google-re2``) never backtracks, so a search costs time linear in the text.

A pattern is read as the output scorer always read it (case-insensitive, ``^``/``$`` at
line ends) and translated to RE2 where the two differ: ``\\w``, ``\\d``, ``\\s`` (and their
negations outside a class) keep Python's Unicode meaning, and ``\\Z`` is RE2's ``\\z``.
``\\b`` is ASCII-only on RE2. The constructs RE2 cannot express (backreferences, look-ahead
and look-behind, atomic groups, possessive quantifiers, conditionals) are refused with an
:class:`UnsupportedPattern` error saying which. :func:`nested_quantifiers` finds the
repeats inside repeats that would be catastrophic on a backtracking engine (lint).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

#: Python's Unicode classes spelled for RE2 (inside a character class, without brackets).
_WORD = r"\p{L}\p{N}_"
_DIGIT = r"\p{Nd}"
_SPACE = r"\t\n\x0b\f\r \x{1c}-\x{1f}\x{85}\p{Z}"
_CLASS_ESCAPES = {"w": _WORD, "d": _DIGIT, "s": _SPACE}
_OUTSIDE_ESCAPES = {
    "w": f"[{_WORD}]",
    "W": f"[^{_WORD}]",
    "d": _DIGIT,
    "D": r"\P{Nd}",
    "s": f"[{_SPACE}]",
    "S": f"[^{_SPACE}]",
    "Z": r"\z",
}
#: What RE2's error text means, for a message a dataset author can act on.
_REASONS = (
    ("invalid escape sequence: \\g", "backreferences (\\g<name>)"),
    ("invalid perl operator: (?=", "look-ahead (?=...)"),
    ("invalid perl operator: (?!", "negative look-ahead (?!...)"),
    ("invalid perl operator: (?<=", "look-behind (?<=...)"),
    ("invalid perl operator: (?<!", "negative look-behind (?<!...)"),
    ("invalid perl operator: (?>", "atomic groups (?>...)"),
    ("invalid perl operator: (?(", "conditionals (?(...)...)"),
    ("invalid perl operator: (?P", "named backreferences (?P=name)"),
    ("invalid perl operator: (?x", "the verbose flag (?x)"),
    ("bad repetition operator: *+", "possessive quantifiers (*+, ++, ?+)"),
    ("bad repetition operator: ++", "possessive quantifiers (*+, ++, ?+)"),
    ("bad repetition operator: ?+", "possessive quantifiers (*+, ++, ?+)"),
    ("pattern too large", "a pattern this large (repeat counts multiply out)"),
)


class UnsupportedPattern(re.error):
    """A pattern linear-time matching cannot run: invalid, or a backtracking-only construct."""


def check_pattern(pattern: str) -> None:
    """Raise :class:`UnsupportedPattern` (a ``re.error``) unless ``pattern`` compiles on both
    Python's ``re`` (its syntax is the reference) and RE2 (where it runs)."""
    _compiled(pattern)


def search(pattern: str, text: str) -> Any:
    """The first match of ``pattern`` in ``text`` (case-insensitive, multiline), or None.

    The match has ``group(0)``, ``start()`` and ``end()`` like a ``re.Match``.

    Raises:
        UnsupportedPattern: the pattern is invalid or uses a construct RE2 lacks.
    """
    return _compiled(pattern).search(text)


@lru_cache(maxsize=512)
def _compiled(pattern: str) -> Any:
    try:
        re.compile(pattern, re.IGNORECASE | re.MULTILINE)
    except (re.error, RecursionError, OverflowError) as exc:
        raise UnsupportedPattern(str(exc)) from None
    import re2

    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = False
    try:
        return re2.compile("(?m)" + translate(pattern), options)
    except re2.error as exc:
        raise UnsupportedPattern(_reason(pattern, exc)) from None


def _reason(pattern: str, exc: Exception) -> str:
    detail = exc.args[0] if exc.args else exc
    text = detail.decode("utf-8", "replace") if isinstance(detail, bytes) else str(detail)
    backreference = re.match(r"invalid escape sequence: \\[1-9]", text)
    reasons = (("", "backreferences (\\1 ... \\9)"),) if backreference else _REASONS
    for needle, construct in reasons:
        if text.startswith(needle):
            return (
                f"{construct} cannot run in linear time (golden regexes match on RE2); "
                f"rewrite the pattern without it ({text})"
            )
    return f"not supported by the linear-time engine (RE2): {text}"


def translate(pattern: str) -> str:
    """``pattern`` with Python's Unicode ``\\w \\d \\s`` and ``\\Z`` spelled for RE2."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            letter = pattern[i + 1]
            table = _CLASS_ESCAPES if in_class else _OUTSIDE_ESCAPES
            out.append(table.get(letter, char + letter))
            i += 2
            continue
        if char == "[" and not in_class:
            in_class = True
            out.append(char)
            i += 1
            if pattern[i : i + 1] == "^":
                out.append("^")
                i += 1
            if pattern[i : i + 1] == "]":  # a leading ] is a literal
                out.append(r"\]")
                i += 1
            continue
        if char == "]" and in_class:
            in_class = False
        out.append(char)
        i += 1
    return "".join(out)


def nested_quantifiers(pattern: str) -> list[str]:
    """Each loosely repeated group holding a loose repeat, e.g. ``(\\w+\\s?)+`` (see
    :func:`_quantifier`): catastrophic on a backtracking engine, harmless on RE2."""
    found: list[str] = []
    stack: list[list[Any]] = []  # [start, holds a repeat]
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        closed: list[Any] | None = None
        if char == "\\":
            i += 2
        elif char == "[":
            i = _class_end(pattern, i)
        elif char == "(":
            stack.append([i, False])
            i = _group_body(pattern, i)
            continue
        elif char == ")" and stack:
            closed = stack.pop()
            i += 1
        else:
            i += 1
        width, repeats = _quantifier(pattern, i)
        if closed is not None and repeats and closed[1]:
            found.append(pattern[closed[0] : i + width])
        if stack and (repeats or (closed is not None and closed[1])):
            stack[-1][1] = True
        i += width
    return found


def _class_end(pattern: str, start: int) -> int:
    """The index just past the character class opening at ``start``."""
    i = start + 1
    if pattern[i : i + 1] == "^":
        i += 1
    if pattern[i : i + 1] == "]":
        i += 1
    while i < len(pattern) and pattern[i] != "]":
        i += 2 if pattern[i] == "\\" else 1
    return i + 1


def _group_body(pattern: str, start: int) -> int:
    """The index where the body of the group opening at ``start`` begins."""
    i = start + 1
    if pattern[i : i + 1] != "?":
        return i
    i += 1
    named = pattern[i : i + 1] == "<" and pattern[i + 1 : i + 2] not in ("=", "!")
    if named or pattern[i : i + 2] == "P<":
        end = pattern.find(">", i)
        return len(pattern) if end < 0 else end + 1
    while i < len(pattern) and pattern[i] in "aiLmsux-":
        i += 1
    if pattern[i : i + 1] in (":", "=", "!", ">"):
        return i + 1
    if pattern[i : i + 2] in ("<=", "<!"):
        return i + 2
    return i


_BRACES = re.compile(r"\{(\d*)(?:(,)(\d*))?\}")


def _quantifier(pattern: str, i: int) -> tuple[int, bool]:
    """(length, loose) of the quantifier at ``i``, (0, False) if none; a loose one repeats a
    variable number of times, more than once at most (``*``, ``+``, ``{2,}``, ``{1,3}``)."""
    char = pattern[i : i + 1]
    if char in ("*", "+", "?"):
        width = 1 + (pattern[i + 1 : i + 2] in ("?", "+"))
        return width, char != "?"
    braces = _BRACES.match(pattern, i)
    if braces is None or not (braces.group(1) or braces.group(3)):
        return 0, False
    low, comma, high = braces.groups()
    width = braces.end() - i
    width += pattern[braces.end() : braces.end() + 1] in ("?", "+")
    least = int(low or 0)
    most = int(high) if high else (None if comma else least)
    return width, most is None or (most > 1 and most != least)

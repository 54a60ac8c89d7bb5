"""Tolerant text matching: case-insensitive substrings with numbers compared by value.

An expected item is cut into number tokens and literal text. Literal text matches
case-insensitively (after Unicode NFKC folding and straightening of curly quotes), runs
of whitespace match any whitespace, and every number matches any spelling of the same
value: ``"300"`` matches ``"300"``, ``"300.0"`` and ``"300.00"``; ``"210000000000"``
matches ``"210,000,000,000"``; ``"34.5"`` matches ``"34.50"``. A number never matches
inside a longer one: ``"300"`` does not match ``"1300"``, ``"3000"``, ``"1,300"`` or
``"300,000"``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from decimal import Decimal, InvalidOperation
from functools import lru_cache

# A number: digits with optional comma thousands groups, then an optional decimal part.
NUMBER = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?"
# Not glued to a digit on the left ("1300", "1.300", "1,300") ...
_LEFT = r"(?<!\d)(?<!\d[.,])"
# ... nor on the right ("3000", "300.5" is fine as one number, "300,000").
_RIGHT = r"(?!\d)(?![.,]\d)"
_NUMBER_TOKEN = re.compile(f"{_LEFT}({NUMBER}){_RIGHT}")
_SPACES = re.compile(r"\s+")
_TRANSLATE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201f": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2212": "-",
    }
)
REL_TOL = 1e-9
ABS_TOL = 1e-12


def normalize_text(text: str) -> str:
    """NFKC-fold, straighten quotes and hyphens, and casefold ``text``."""
    return unicodedata.normalize("NFKC", text).translate(_TRANSLATE).casefold()


def collapse_spaces(text: str) -> str:
    """Collapse runs of whitespace into one space and strip the ends."""
    return _SPACES.sub(" ", text).strip()


def parse_number(token: str) -> Decimal | None:
    """The value of a number token (``"1,300.50"`` -> 1300.50), None when not a number."""
    try:
        return Decimal(token.replace(",", "").strip())
    except InvalidOperation:
        return None


def numbers_close(a: Decimal | float, b: Decimal | float) -> bool:
    """True when two numbers are equal up to a tiny relative tolerance."""
    return math.isclose(float(a), float(b), rel_tol=REL_TOL, abs_tol=ABS_TOL)


def extract_numbers(text: str) -> list[Decimal]:
    """Every whole number written in ``text``, in order."""
    values = (parse_number(m.group(1)) for m in _NUMBER_TOKEN.finditer(normalize_text(text)))
    return [value for value in values if value is not None]


def _literal(piece: str) -> str:
    parts = [re.escape(part) for part in _SPACES.split(piece)]
    pattern = r"\s+".join(parts)
    if piece[:1].isdigit():
        pattern = _LEFT + pattern
    if piece[-1:].isdigit():
        pattern += _RIGHT
    return pattern


@lru_cache(maxsize=4096)
def _compile(item: str) -> tuple[re.Pattern[str], tuple[Decimal, ...]]:
    """The regex for an expected item and the values its number groups must hold."""
    text = collapse_spaces(normalize_text(item))
    pattern: list[str] = []
    values: list[Decimal] = []
    cursor = 0
    for match in _NUMBER_TOKEN.finditer(text):
        value = parse_number(match.group(1))
        if value is None:  # pragma: no cover - the token regex only yields numbers
            continue
        if match.start() > cursor:
            pattern.append(_literal(text[cursor : match.start()]))
        pattern.append(f"{_LEFT}({NUMBER}){_RIGHT}")
        values.append(value)
        cursor = match.end()
    if cursor < len(text):
        pattern.append(_literal(text[cursor:]))
    return re.compile("".join(pattern)), tuple(values)


def find_item(text: str, item: str) -> str | None:
    """The span of normalised ``text`` matching ``item`` (numbers by value), or None.

    An empty item matches any text.
    """
    if not item.strip():
        return ""
    regex, values = _compile(item)
    haystack = normalize_text(text)
    position = 0
    while (match := regex.search(haystack, position)) is not None:
        found = [parse_number(group) for group in match.groups()]
        if all(f is not None and numbers_close(f, v) for f, v in zip(found, values, strict=True)):
            return match.group(0)
        position = match.start() + 1
    return None


def contains_item(text: str, item: str) -> bool:
    """True when ``text`` contains ``item`` (case-insensitive, numbers by value)."""
    return find_item(text, item) is not None


def first_alternative(text: str, alternatives: str | list[str]) -> str | None:
    """The first of the alternatives ``text`` contains, or None when none is found.

    A plain string is one alternative; an empty list of alternatives never matches.
    """
    options = [alternatives] if isinstance(alternatives, str) else list(alternatives)
    for option in options:
        if contains_item(text, option):
            return option
    return None

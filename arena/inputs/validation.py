"""How a pydantic validation error reads in an :class:`~arena.errors.InputError`, for every
reader of user input, and the strict number types the files' models use.

A field is named by its dotted path (``conversation.expect.0.turn``) without pydantic's
internal tags (``expected_output_contains.0.str`` reads ``expected_output_contains.0``); a
validator's own ``ValueError`` reads as it said it; a wrong type reads ``must be an integer,
got "3"``. :data:`StrictInt`, :data:`StrictNumber` and :data:`StrictFlag` refuse what pydantic
would otherwise convert without a word: ``true`` or ``"3"`` or ``3.0`` for an integer,
``true`` or ``"0.5"`` for a number, ``1`` or ``"yes"`` for a boolean.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import Strict, ValidationError

from arena.errors import InputError

StrictInt = Annotated[int, Strict()]
"""An integer written as one: not a boolean, a string or a float (``3.0``)."""
StrictNumber = Annotated[float, Strict()]
"""A number written as one (an integer is a number): not a boolean or a string."""
StrictFlag = Annotated[bool, Strict()]
"""``true`` or ``false``: not ``1``, ``"yes"`` or ``"true"``."""

# The parts pydantic adds to an error's location to say which member of a union, or which
# validator, failed: never a field of the file (``ReplyItem``: the mapping form of an
# expected output item, arena.golden._calls).
_TAG = re.compile(
    r"^(str|int|float|bool|bytes|none|date|datetime|ReplyItem"
    r"|(list|dict|tuple|set|frozenset|literal|nullable|union)\[.*\]"
    r"|(function|lax|json|tagged|is|constrained|default|model)-[a-z-]+(\[.*\])?)$"
)

_WANTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a string",
}


def field_path(loc: Sequence[Any]) -> str:
    """An error's location as a dotted field path, pydantic's union and validator tags left
    out (``("expected_output_contains", 0, "str")`` -> ``expected_output_contains.0``)."""
    return ".".join(str(part) for part in loc if not (isinstance(part, str) and _TAG.match(part)))


def error_message(err: Any) -> str:
    """One error's message: a validator's own ``ValueError`` as it said it (no "Value
    error,"), a wrong type as ``must be an integer, got true``, else pydantic's."""
    kind = err.get("type")
    if kind in _WANTED:
        return f"must be {_WANTED[kind]}, got {_shown(err.get('input'))}"
    cause = err.get("ctx", {}).get("error") if kind == "value_error" else None
    return str(cause) if cause is not None else str(err["msg"])


def _shown(value: Any) -> str:
    """A value as the file wrote it (JSON), cut to 60 characters."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def first_error(exc: ValidationError) -> Any:
    """The error to report: the first, or, when it is one member of a union that failed, the
    deepest error under the same field (``[["a", 42]]`` names the 42, not the list)."""
    errors = exc.errors()

    def parts(err: Any) -> list[str]:
        return field_path(err["loc"]).split(".")

    base = parts(errors[0])
    under = [err for err in errors if parts(err)[: len(base)] == base]
    return max(under, key=lambda err: len(parts(err)))


def input_error(exc: ValidationError, prefix: Sequence[Any] = (), **where: Any) -> InputError:
    """The InputError of ``exc``'s :func:`first_error`: its message and its field (under
    ``prefix``), with ``where`` (``file``, ``case``, ``variant``, ``at``) naming the place."""
    err = first_error(exc)
    field = field_path((*prefix, *err["loc"])) or None
    return InputError(error_message(err), field=field, **where)

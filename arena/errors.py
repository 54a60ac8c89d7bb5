"""Exceptions raised by agent-arena, each naming where bad input came from."""

from __future__ import annotations


class ArenaError(Exception):
    """Base class for every error agent-arena raises on purpose."""


class InputError(ArenaError):
    """Bad user input: a file, a case or a field that does not validate.

    The message always names the file and, where known, the case id and the field.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        case: str | None = None,
        field: str | None = None,
    ) -> None:
        self.message, self.file, self.case, self.field = message, file, case, field
        where = []
        if file:
            where.append(f"file {file}")
        if case:
            where.append(f"case {case}")
        if field:
            where.append(f"field {field}")
        prefix = f"{', '.join(where)}: " if where else ""
        super().__init__(prefix + message)


class ModelError(ArenaError):
    """A model could not be built or started (bad spec, missing weights, server failure)."""

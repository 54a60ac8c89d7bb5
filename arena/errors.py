"""Exceptions raised by agent-arena, each naming where bad input came from."""

from __future__ import annotations


class ArenaError(Exception):
    """Base class for every error agent-arena raises on purpose."""


class InputError(ArenaError):
    """Bad user input: a file, a case or a variant, or a field, that does not validate.

    The message always names the file and, where known, the place in it (``at``: ``line 3``),
    the variant or the case id, and the field (``file variants/bad.yaml, variant bad-tool,
    field tools: ...``; ``file prod.jsonl, line 3, field answer: ...``).
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        case: str | None = None,
        field: str | None = None,
        variant: str | None = None,
        at: str | None = None,
    ) -> None:
        self.message, self.file, self.case, self.field = message, file, case, field
        self.variant, self.at = variant, at
        where = []
        if file:
            where.append(f"file {file}")
        if at:
            where.append(at)
        if variant:
            where.append(f"variant {variant}")
        if case:
            where.append(f"case {case}")
        if field:
            where.append(f"field {field}")
        prefix = f"{', '.join(where)}: " if where else ""
        super().__init__(prefix + message)


class ModelError(ArenaError):
    """A model could not be built or started (bad spec, missing weights, server failure)."""


class NotFound(ArenaError):
    """A stored thing that is not there: a run, a dataset, a result, a variant of a run.

    The message names what was looked for and, where it helps, what there is.
    """


class UnknownName(InputError):
    """No extension of this kind is registered under the name (entry points read again).

    Attributes:
        kind: the extension kind (``model provider``, ``judge mode``, ...).
        name: the name looked up.
        known: every registered name of the kind.
    """

    def __init__(self, kind: str, name: str, known: tuple[str, ...]) -> None:
        self.kind, self.name, self.known = kind, name, known
        super().__init__(f"unknown {kind} {name!r}; known: {', '.join(known) or 'none'}")


class NameTaken(InputError):
    """A name registered again (decorator, ``register``, ``REGISTRY[name] = ...`` or an entry
    point) without ``replace=True``.

    Attributes:
        kind: the extension kind.
        name: the name registered twice.
        current: what is registered under it (an import path).
    """

    def __init__(self, kind: str, name: str, current: str, new: str = "") -> None:
        self.kind, self.name, self.current = kind, name, current
        by = f" by {new}" if new else ""
        super().__init__(
            f"{kind} {name!r} is registered already ({current}); registering it again{by} "
            "needs replace=True (or choose another name)"
        )


class AlreadyVoted(InputError):
    """A person's second vote on a pair they voted on already (in either display order): the
    first vote stands; nothing is stored."""


class NewerFormat(InputError):
    """A file (or database) written by a newer agent-arena, in a format version this one does
    not know: "baseline format 4 is newer than this agent-arena reads (up to 3): upgrade"."""

    def __init__(
        self, kind: str, found: object, known: int, *, file: str | None = None, field: str = ""
    ) -> None:
        super().__init__(
            f"{kind} format {found} is newer than this agent-arena reads (up to {known}): "
            "it was written by a newer agent-arena; upgrade agent-arena to read it",
            file=file,
            field=field or "format",
        )
        self.found, self.known = found, known


def check_format(
    kind: str, data: object, known: int, *, file: str | None = None, key: str = "format"
) -> None:
    """Refuse ``data`` (a parsed JSON object) whose ``key`` is an integer format newer than
    ``known`` (:class:`NewerFormat`); anything else is left to the format's own validation."""
    if not isinstance(data, dict):
        return
    found = data.get(key)
    if isinstance(found, int) and not isinstance(found, bool) and found > known:
        raise NewerFormat(kind, found, known, file=file, field=key)

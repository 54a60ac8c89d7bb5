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


class EnvironmentFault(ArenaError):
    """The machine refused a write arena had to make: the disk is full, a file-size limit
    (``ulimit -f``) is reached, the database or its folder is read-only. Not bad input and not
    a bug: the command exits 3 with one line saying what and what to do; what was finished is
    kept (each stored result is its own transaction), so the same command resumes."""


EXIT_ENVIRONMENT = 3
"""The exit status of an :class:`EnvironmentFault`."""

_FULL, _LIMIT, _READ_ONLY, _DENIED, _IO = (
    "the disk is full",
    "a file-size limit is reached",
    "the file or its folder is read-only",
    "permission denied",
    "the disk refused a write",
)
_ERRNO_FAULTS = {
    "ENOSPC": _FULL,
    "EDQUOT": _FULL,
    "EFBIG": _LIMIT,
    "EROFS": _READ_ONLY,
    "EACCES": _DENIED,
    "EPERM": _DENIED,
}
_TEXT_FAULTS = (
    ("database or disk is full", _FULL),
    ("no space left on device", _FULL),
    ("readonly database", _READ_ONLY),
    ("read-only file system", _READ_ONLY),
    ("disk i/o error", _IO),
)
_FIXES = {
    _FULL: "free space on its disk (or point --db or the output elsewhere)",
    _LIMIT: "raise the file-size limit (ulimit -f)",
    _READ_ONLY: "make the database, its folder and the output writable (or point --db elsewhere)",
    _DENIED: "make the database, its folder and the output writable (or point --db elsewhere)",
    _IO: "free space or raise the file-size limit (ulimit -f)",
}
_RESUME = "then rerun the same command: what finished is kept and the run resumes"


def _chain(exc: BaseException) -> list[BaseException]:
    found: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in found and len(found) < 20:
        found.append(current)
        current = current.__cause__ or current.__context__
    return found


def _file_size_limit() -> int | None:
    """The process's file-size limit in bytes (None: unlimited, or not a POSIX system)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def _nearly_full(folder: str | None) -> bool:
    """The disk holding ``folder`` has less than 1 MiB free (False when unknown)."""
    import shutil

    try:
        return folder is not None and shutil.disk_usage(folder).free < 1 << 20
    except OSError:
        return False


def environment_fault(exc: BaseException, folder: str | None = None) -> EnvironmentFault | None:
    """``exc`` as an :class:`EnvironmentFault` when it (or what caused it) is the machine
    refusing a write (an ``OSError`` of a full disk, a file-size limit, a read-only file
    system, a denied permission; SQLite's or PostgreSQL's "disk is full", "readonly
    database", "disk I/O error"), else None (a bug stays a bug). ``folder`` (the database's)
    tells a full disk from another I/O error when SQLite says no more than "disk I/O error"."""
    import errno

    for err in _chain(exc):
        what = None
        if isinstance(err, OSError) and err.errno is not None:
            what = _ERRNO_FAULTS.get(errno.errorcode.get(err.errno, ""))
        if what is None:
            text = str(err).lower()
            what = next((said for found, said in _TEXT_FAULTS if found in text), None)
        if what is None:
            continue
        if what == _IO and _nearly_full(folder):
            what = _FULL
        fix, said = _FIXES[what], what
        if what == _IO:  # SQLite says no more: say what is likely
            limit = _file_size_limit()
            if limit is not None:
                said, fix = f"{what} (a file-size limit of {limit} bytes is set)", _FIXES[_LIMIT]
            else:
                said += " (the disk may be full)"
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        return EnvironmentFault(f"a write failed, {said}: {first}; {fix}, {_RESUME}")
    return None


class NewerFormat(InputError):
    """A file (or database) written by a newer agent-arena, in a format version this one does
    not know: "baseline format 4 is newer than this agent-arena reads (up to 3): upgrade"."""

    def __init__(
        self,
        kind: str,
        found: object,
        known: int,
        *,
        file: str | None = None,
        field: str = "",
        at: str | None = None,
    ) -> None:
        super().__init__(
            f"{kind} format {found} is newer than this agent-arena reads (up to {known}): "
            "it was written by a newer agent-arena; upgrade agent-arena to read it",
            file=file,
            field=field or "format",
            at=at,
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


ROW_FORMAT_KEY = "arena_format"
"""The field of a JSONL row (a battle-log or vote row, a labelled verdict) holding the
version of the format agent-arena wrote it in; a row without it is format 1."""


def check_row_format(kind: str, row: object, known: int, *, file: str, at: str) -> None:
    """Refuse one row of a JSONL (or JSON list) file whose :data:`ROW_FORMAT_KEY` is newer
    than ``known`` (:class:`NewerFormat`, naming the file, the row ``at`` and the field) or
    is not a whole number >= 1 (:class:`InputError`); a row without it (or ``null``) is
    format 1. Rows are checked one by one, as they are read, before their other fields."""
    if not isinstance(row, dict) or row.get(ROW_FORMAT_KEY) is None:
        return
    found = row[ROW_FORMAT_KEY]
    if isinstance(found, bool) or not isinstance(found, int) or found < 1:
        raise InputError(
            f"must be a whole number >= 1 (the {kind} format's version), got {found!r}",
            file=file,
            at=at,
            field=ROW_FORMAT_KEY,
        )
    if found > known:
        raise NewerFormat(kind, found, known, file=file, field=ROW_FORMAT_KEY, at=at)

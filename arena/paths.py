"""Where the shipped data and the agents' sandboxes live.

The data (golden sets, variants, prompts, the research corpus, ``pricing.yaml``) ships inside
the installed package as ``arena/_data`` (copied from the repository's ``data/`` when the wheel
is built, see ``setup.py``) and is found with :mod:`importlib.resources`; a source checkout or
an editable install reads the repository's ``data/`` itself.

No path is ever built from raw user text: names (variant names, case ids, database URLs) go
through :func:`safe_name`, which keeps a readable, harmless prefix and appends a hash of the
whole text, so two different names never share a folder and none can climb out of one.
"""

from __future__ import annotations

import hashlib
import os
import re
from importlib import resources
from pathlib import Path

DATA_ENV = "ARENA_DATA_DIR"
PACKAGED_DATA = "_data"
"""The folder of the ``arena`` package that holds the shipped data in a built wheel."""
SANDBOX_ENV = "ARENA_SANDBOX_DIR"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_CREDENTIALS = re.compile(r"(//[^/:@]*):[^/@]*@")


def data_dir() -> Path:
    """The data folder: $ARENA_DATA_DIR, else the installed package's ``arena/_data``, else
    the source checkout's ``data/`` (an editable install or ``PYTHONPATH=.``)."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    return packaged_data_dir() or checkout_root() / "data"


def packaged_data_dir() -> Path | None:
    """The data shipped inside the installed package, or None (a source checkout)."""
    shipped = resources.files("arena").joinpath(PACKAGED_DATA)
    # A wheel installed by pip lives on the file system: its resources are real paths.
    return shipped if isinstance(shipped, Path) and shipped.is_dir() else None


def checkout_root() -> Path:
    """The folder holding the ``arena`` package: the repository root in a source checkout."""
    return Path(__file__).resolve().parents[1]


def safe_name(text: str, *, limit: int = 40) -> str:
    """A folder name for ``text``: at most ``limit`` safe characters, "-", 10 hex of its hash.

    Only letters, digits, ".", "_" and "-" survive (no separators, no leading dot), so the
    result is a single path component that is never ".", ".." or hidden.
    """
    return _named(text, _digest(text, 10), limit)


def sandbox_base() -> Path:
    """The root of every sandbox: $ARENA_SANDBOX_DIR, else ``sandboxes/`` in the cache folder
    ($ARENA_CACHE_DIR, default ~/.cache/agent-arena)."""
    env = os.environ.get(SANDBOX_ENV)
    if env:
        return Path(env)
    cache = os.environ.get("ARENA_CACHE_DIR") or Path.home() / ".cache" / "agent-arena"
    return Path(cache) / "sandboxes"


def run_sandbox(database: str, run_id: int) -> Path:
    """The sandbox folder of one run of one database: unique per database AND run.

    ``database`` is the store's URL. A relative SQLite path is made absolute (two projects'
    ``arena.db`` are two databases), an in-memory database is this process's own, and any
    password is dropped before the URL is hashed.
    """
    url = database_identity(database)
    label = url.rstrip("/").rsplit("/", 1)[-1] or "db"
    return sandbox_base() / _named(label, _digest(url, 12), 24) / f"run-{int(run_id)}"


def database_identity(url: str) -> str:
    """``url`` without its password, with a relative SQLite path made absolute."""
    url = _CREDENTIALS.sub(r"\1@", url)
    if url in ("sqlite://", "sqlite:///") or ":memory:" in url or "mode=memory" in url:
        return f"{url}#pid={os.getpid()}"
    prefix, sep, rest = url.partition(":///")
    if sep and prefix.startswith("sqlite") and not rest.startswith("/"):
        path, query_sep, query = rest.partition("?")
        url = f"{prefix}:///{Path(path).resolve()}{query_sep}{query}"
    return url


def _named(text: str, digest: str, limit: int) -> str:
    readable = _UNSAFE.sub("_", text)[:limit].lstrip("._-")
    return f"{readable}-{digest}" if readable else digest


def _digest(text: str, size: int) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:size]

"""The project files each variant version's agents were seen loading at run time (mixed into
Store; see :mod:`arena.factories._loaded`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypeVar

from sqlalchemy import select

from arena.factories._loaded import LoadedFile, recorded_in, remember
from arena.storage._tables import LoadedFileRow
from arena.storage._writes import insert_ignore

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

T = TypeVar("T")


class LoadedStoreMixin:
    """Record run-time loaded files per version; the lists recorded become
    :data:`arena.factories._loaded.RECORDED` when the Store opens, so versions made after
    that cover them."""

    _loaded_known: set[tuple[str, str]]

    def session(self) -> Session:
        raise NotImplementedError

    def _write(self, work: Callable[[Session], T]) -> T:
        raise NotImplementedError

    def _read_loaded(self) -> None:
        """Hand every stored list to RECORDED (called when the Store opens)."""
        by_version: dict[str, dict[str, LoadedFile]] = {}
        with self.session() as s:
            for row in s.scalars(select(LoadedFileRow)):
                by_version.setdefault(row.variant_hash, {})[row.path] = LoadedFile(
                    row.module, row.digest
                )
        self._loaded_known = {(h, p) for h, files in by_version.items() for p in files}
        recorded_in(by_version)

    def record_loaded(self, version_hash: str, files: Mapping[str, LoadedFile]) -> None:
        """Keep the files agents of ``version_hash`` were seen loading (those not kept yet;
        the first content hash recorded for a path stays)."""
        new = {p: f for p, f in files.items() if (version_hash, p) not in self._loaded_known}
        if not new:
            return

        def work(s: Session) -> None:
            for path, file in new.items():
                values = {"variant_hash": version_hash, "path": path}
                values.update(module=file.module, digest=file.digest)
                insert_ignore(s, LoadedFileRow, values, ["variant_hash", "path"])

        self._write(work)
        self._loaded_known.update((version_hash, p) for p in new)
        remember(version_hash, new)

    def loaded_paths(self) -> list[str]:
        """Every project file any version was seen loading at run time (relative paths)."""
        with self.session() as s:
            return sorted(set(s.scalars(select(LoadedFileRow.path))))

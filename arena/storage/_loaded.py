"""The project files each variant's agents were seen loading at run time (mixed into Store;
see :mod:`arena.factories._loaded`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from sqlalchemy import select

from arena.storage._tables import LoadedFileRow
from arena.storage._writes import insert_ignore

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from arena.variants.variant import Variant

T = TypeVar("T")


class LoadedStoreMixin:
    """Record run-time loaded files under a variant's static version; cover them in the
    version of the next run (:meth:`covering`)."""

    def session(self) -> Session:
        raise NotImplementedError

    def _write(self, work: Callable[[Session], T]) -> T:
        raise NotImplementedError

    def record_loaded(self, static_hash: str, files: dict[str, str]) -> None:
        """Keep the files (relative path -> content hash) agents of ``static_hash`` loaded;
        the first content hash recorded for a path stays."""
        if not files:
            return

        def work(s: Session) -> None:
            for path, digest in files.items():
                values = {"variant_hash": static_hash, "path": path, "digest": digest}
                insert_ignore(s, LoadedFileRow, values, ["variant_hash", "path"])

        self._write(work)

    def loaded_files(self, static_hash: str) -> dict[str, str]:
        """The files recorded for ``static_hash``: relative path -> first content hash."""
        with self.session() as s:
            rows = s.scalars(select(LoadedFileRow).where(LoadedFileRow.variant_hash == static_hash))
            return {row.path: row.digest for row in rows}

    def covering(self, variant: Variant) -> Variant:
        """``variant`` with a version covering the files its runs were seen loading at run
        time (:meth:`VariantVersion.covering`): the same object when none were recorded."""
        from arena.factories._imports import project_roots
        from arena.factories._loaded import current_digest

        version = variant.version
        if version.loaded or not version.code:
            return variant
        recorded = self.loaded_files(version.static_hash)
        if not recorded:
            return variant
        roots = project_roots(variant.source_file)
        now = {path: current_digest(path, roots) for path in sorted(recorded)}
        return variant.model_copy().with_version(version.covering(recorded, now))

"""Alembic's environment: migrations run on the connection :mod:`arena.storage._schema` gives,
inside its transaction (one transaction for every pending revision; nothing is half-applied)."""

from __future__ import annotations

from alembic import context

from arena.storage._tables import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - always called by arena.storage._schema
    raise RuntimeError("arena's migrations run through `arena db upgrade`, not the alembic CLI")
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    transactional_ddl=True,
    render_as_batch=True,  # SQLite alters a table by copying it (batch mode)
)
with context.begin_transaction():
    context.run_migrations()

"""agent-arena 0.2.0: the project files an agent loaded dynamically, per variant version.

* ``loaded_files``: a project module an agent of a variant's static version was seen loading
  at run time (``importlib.import_module``), with its content hash, so the next run's version
  covers it (``arena.factories._loaded``).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the ``loaded_files`` table."""
    op.create_table(
        "loaded_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("variant_hash", sa.String(length=32), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("digest", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("variant_hash", "path"),
    )
    with op.batch_alter_table("loaded_files") as batch_op:
        batch_op.create_index(
            batch_op.f("ix_loaded_files_variant_hash"), ["variant_hash"], unique=False
        )


def downgrade() -> None:
    """Not supported: restore the backup copy `arena db upgrade` made instead."""
    raise NotImplementedError("downgrades are not supported: restore the backup copy")

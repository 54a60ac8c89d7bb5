"""agent-arena 0.2.0: each score records the scoring rules that made it; the releases that wrote
the schema are recorded.

* ``scores.rules_version`` (a new column, 0 for every score stored before: graded by the rules
  of an older release, see ``arena.scoring.RULES_VERSION``);
* ``schema_releases``: one row per creation or upgrade of the schema (revision, agent-arena
  version, when), so a newer database can name the release that wrote it.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``scores.rules_version`` and the ``schema_releases`` table."""
    with op.batch_alter_table("scores") as batch_op:
        batch_op.add_column(
            sa.Column("rules_version", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )
    op.create_table(
        "schema_releases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("revision", sa.String(length=32), nullable=False),
        sa.Column("release", sa.String(length=50), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    """Not supported: restore the backup copy `arena db upgrade` made instead."""
    raise NotImplementedError("downgrades are not supported: restore the backup copy")

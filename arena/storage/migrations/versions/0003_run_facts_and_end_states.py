"""agent-arena 0.2.0: what scoring reads of a result beyond its answer, and its end state.

* ``run_facts``: per result, the text of every assistant reply and the agent's declared
  side-effecting tools (``expected_calls``, ``in: any_reply``);
* ``end_states``: per result, the diff of the state the agent exposes (``expected_state``).

Both are new tables keyed by ``result_id``: results stored before have no row (no state
exposed, replies not recorded).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _result_side_table(name: str) -> None:
    op.create_table(
        name,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("result_id", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["result_id"], ["results.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("result_id"),
    )


def upgrade() -> None:
    """Add the ``end_states`` and ``run_facts`` tables."""
    _result_side_table("end_states")
    _result_side_table("run_facts")


def downgrade() -> None:
    """Not supported: restore the backup copy `arena db upgrade` made instead."""
    raise NotImplementedError("downgrades are not supported: restore the backup copy")

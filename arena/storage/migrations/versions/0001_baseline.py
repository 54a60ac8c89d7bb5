"""The schema of agent-arena 0.1.0 (main at 6adf05e): every table, created when absent.

A database written before revisions were recorded (no ``alembic_version`` table) has some of
these tables, all made by ``create_all`` of the code of its day; this revision creates the ones
it lacks (with their indexes) and leaves the others as they are.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


_CREATED: set[str] = set()


def _table(name: str, *elements: Any) -> None:
    """Create the table unless the database already has it."""
    if sa.inspect(op.get_bind()).has_table(name):
        return
    op.create_table(name, *elements)
    _CREATED.add(name)


def _index(table: str, name: str, columns: list[str]) -> None:
    """An index of a table this revision created (an existing table has its own)."""
    if table in _CREATED:
        op.create_index(name, table, columns, unique=False)


def upgrade() -> None:
    """Create the tables of 0.1.0 the database lacks."""
    _CREATED.clear()
    _table(
        "baselines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    _table(
        "datasets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("version", sa.String(length=50), nullable=False),
        sa.Column("hash", sa.String(length=32), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("hash"),
    )
    _table(
        "mutations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("dataset", sa.String(length=200), nullable=False),
        sa.Column("variant", sa.String(length=200), nullable=False),
        sa.Column("score", sa.Double(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    _index("mutations", "ix_mutations_dataset", ["dataset"])

    _table(
        "response_cache",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("model", sa.String(length=64), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    _index("response_cache", "ix_response_cache_model", ["model"])

    _table(
        "variants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("hash", sa.String(length=32), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name", "hash"),
    )
    _index("variants", "ix_variants_name", ["name"])

    _table(
        "verdict_cache",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("judge_key", sa.String(length=32), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    _index("verdict_cache", "ix_verdict_cache_judge_key", ["judge_key"])

    _table(
        "cases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("dataset_id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.String(length=200), nullable=False),
        sa.Column("case_hash", sa.String(length=32), nullable=False),
        sa.Column("category", sa.String(length=50), nullable=False),
        sa.Column("tier", sa.String(length=20), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["dataset_id"],
            ["datasets.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("dataset_id", "case_id"),
    )
    _index("cases", "ix_cases_dataset_id", ["dataset_id"])

    _table(
        "runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("dataset_id", sa.Integer(), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["dataset_id"],
            ["datasets.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    _table(
        "results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=200), nullable=False),
        sa.Column("variant_hash", sa.String(length=32), nullable=False),
        sa.Column("case_id", sa.String(length=200), nullable=False),
        sa.Column("case_hash", sa.String(length=32), nullable=False),
        sa.Column("repeat", sa.Integer(), nullable=False),
        sa.Column("output", sa.Text(), nullable=False),
        sa.Column("model_calls", sa.Integer(), nullable=False),
        sa.Column("fresh_model_calls", sa.Integer(), nullable=False),
        sa.Column("latency_s", sa.Float(), nullable=False),
        sa.Column("input_tokens", sa.Integer(), nullable=False),
        sa.Column("output_tokens", sa.Integer(), nullable=False),
        sa.Column("cost_usd", sa.Float(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("files", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("run_id", "variant_hash", "case_hash", "repeat"),
    )
    _index("results", "ix_results_run_id", ["run_id"])

    _table(
        "battles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("judge_key", sa.String(length=32), nullable=False),
        sa.Column("case_id", sa.String(length=200), nullable=False),
        sa.Column("repeat", sa.Integer(), nullable=False),
        sa.Column("variant_a", sa.String(length=200), nullable=False),
        sa.Column("variant_b", sa.String(length=200), nullable=False),
        sa.Column("result_a_id", sa.Integer(), nullable=False),
        sa.Column("result_b_id", sa.Integer(), nullable=False),
        sa.Column("winner", sa.String(length=20), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["result_a_id"],
            ["results.id"],
        ),
        sa.ForeignKeyConstraint(
            ["result_b_id"],
            ["results.id"],
        ),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("run_id", "judge_key", "result_a_id", "result_b_id"),
    )
    _index("battles", "ix_battles_judge_key", ["judge_key"])
    _index("battles", "ix_battles_run_id", ["run_id"])

    _table(
        "dialogues",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("result_id", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("result_id"),
    )
    _table(
        "node_paths",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("result_id", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("result_id"),
    )
    _table(
        "node_states",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("result_id", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("result_id"),
    )
    _table(
        "scores",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("result_id", sa.Integer(), nullable=False),
        sa.Column("grader", sa.String(length=200), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
        ),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("result_id", "grader"),
    )
    _index("scores", "ix_scores_run_id", ["run_id"])

    _table(
        "steps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("result_id", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("agent", sa.String(length=100), nullable=False),
        sa.Column("tool", sa.String(length=200), nullable=False),
        sa.Column("args", sa.JSON(), nullable=False),
        sa.Column("observation", sa.Text(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    _index("steps", "ix_steps_result_id", ["result_id"])

    _table(
        "votes",
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("judge_key", sa.String(length=32), nullable=False),
        sa.Column("result_low_id", sa.Integer(), nullable=False),
        sa.Column("result_high_id", sa.Integer(), nullable=False),
        sa.CheckConstraint("result_low_id < result_high_id", name="votes_two_results"),
        sa.ForeignKeyConstraint(["battle_id"], ["battles.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["result_high_id"],
            ["results.id"],
        ),
        sa.ForeignKeyConstraint(
            ["result_low_id"],
            ["results.id"],
        ),
        sa.PrimaryKeyConstraint("battle_id"),
        sa.UniqueConstraint("judge_key", "result_low_id", "result_high_id"),
    )


def downgrade() -> None:
    """Not supported: restore the backup copy `arena db upgrade` made instead."""
    raise NotImplementedError("downgrades are not supported: restore the backup copy")

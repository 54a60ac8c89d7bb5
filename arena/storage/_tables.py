"""SQLAlchemy 2.0 tables. Rows never leave the storage package: callers get pydantic records.

Every change here needs a migration revision in ``arena/storage/migrations/versions``
(docs/storage.md, "Adding a table or a column"); ``tests/storage/test_migrations.py`` fails
until the tables and the revisions agree.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from arena.records.results import utcnow


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class DatasetRow(Base):
    __tablename__ = "datasets"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    version: Mapped[str] = mapped_column(String(50))
    hash: Mapped[str] = mapped_column(String(32), unique=True)
    path: Mapped[str] = mapped_column(Text, default="")
    body: Mapped[dict[str, Any]] = mapped_column(JSON)


class CaseRow(Base):
    __tablename__ = "cases"
    __table_args__ = (UniqueConstraint("dataset_id", "case_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id"), index=True)
    case_id: Mapped[str] = mapped_column(String(200))
    case_hash: Mapped[str] = mapped_column(String(32))
    category: Mapped[str] = mapped_column(String(50))
    tier: Mapped[str] = mapped_column(String(20))
    body: Mapped[dict[str, Any]] = mapped_column(JSON)


class VariantRow(Base):
    __tablename__ = "variants"
    __table_args__ = (UniqueConstraint("name", "hash"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), index=True)
    hash: Mapped[str] = mapped_column(String(32))
    description: Mapped[str] = mapped_column(Text, default="")
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RunRow(Base):
    __tablename__ = "runs"
    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id"))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(20), default="running")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


#: ``results.cost_usd`` of a result whose cost is not known (a model without a price): a
#: negative cost cannot be spent, so it marks "unknown" without a schema change (the column
#: is NOT NULL; making it nullable would copy ``results`` under every table pointing at it).
#: Read back as None (:func:`arena.storage._from_rows.result_record`).
UNKNOWN_COST = -1.0


class ResultRow(Base):
    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("run_id", "variant_hash", "case_hash", "repeat"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"), index=True)
    variant: Mapped[str] = mapped_column(String(200))
    variant_hash: Mapped[str] = mapped_column(String(32))
    case_id: Mapped[str] = mapped_column(String(200))
    case_hash: Mapped[str] = mapped_column(String(32))
    repeat: Mapped[int] = mapped_column(Integer, default=0)
    output: Mapped[str] = mapped_column(Text, default="")
    model_calls: Mapped[int] = mapped_column(Integer, default=0)
    fresh_model_calls: Mapped[int] = mapped_column(Integer, default=0)
    latency_s: Mapped[float] = mapped_column(Float, default=0.0)
    input_tokens: Mapped[int] = mapped_column(Integer, default=0)
    output_tokens: Mapped[int] = mapped_column(Integer, default=0)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)  # UNKNOWN_COST: not known
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    files: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    steps: Mapped[list[StepRow]] = relationship(
        back_populates="result", cascade="all, delete-orphan", order_by="StepRow.index"
    )
    # A conversation case's dialogue, in a table of its own (loaded with every result, one
    # extra query per load; existing databases gain the table, no column is added).
    dialogue: Mapped[DialogueRow | None] = relationship(
        back_populates="result", cascade="all, delete-orphan", lazy="selectin", uselist=False
    )
    # A LangGraph agent's path through its graph, likewise in a table of its own.
    node_path: Mapped[NodePathRow | None] = relationship(
        back_populates="result", cascade="all, delete-orphan", lazy="selectin", uselist=False
    )
    # What the run changed in the state its agent exposes (ctx.expose_state), in a table of
    # its own; loaded with every result (scoring and judging read it).
    end_state: Mapped[EndStateRow | None] = relationship(
        back_populates="result", cascade="all, delete-orphan", lazy="selectin", uselist=False
    )
    # The run's assistant texts and its agent's side-effecting tools (issue 45), likewise.
    facts: Mapped[RunFactsRow | None] = relationship(
        back_populates="result", cascade="all, delete-orphan", lazy="selectin", uselist=False
    )
    # A failed LangGraph run's state after each superstep: loaded only with one result.
    node_states: Mapped[NodeStatesRow | None] = relationship(
        back_populates="result", cascade="all, delete-orphan", lazy="select", uselist=False
    )


class StepRow(Base):
    __tablename__ = "steps"
    id: Mapped[int] = mapped_column(primary_key=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("results.id"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    agent: Mapped[str] = mapped_column(String(100))
    tool: Mapped[str] = mapped_column(String(200))
    args: Mapped[dict[str, Any]] = mapped_column(JSON)
    observation: Mapped[str] = mapped_column(Text, default="")
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    result: Mapped[ResultRow] = relationship(back_populates="steps")


class DialogueRow(Base):
    __tablename__ = "dialogues"
    id: Mapped[int] = mapped_column(primary_key=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("results.id"), unique=True)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[ResultRow] = relationship(back_populates="dialogue")


class NodePathRow(Base):
    __tablename__ = "node_paths"
    id: Mapped[int] = mapped_column(primary_key=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("results.id"), unique=True)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[ResultRow] = relationship(back_populates="node_path")


class RunFactsRow(Base):
    """What scoring reads of a result beyond its answer and steps: ``replies`` (the text of
    every assistant message) and ``side_effecting`` (the agent's declared tools). A row only
    when one of them is non-empty; existing databases gain the table, no column is added."""

    __tablename__ = "run_facts"
    id: Mapped[int] = mapped_column(primary_key=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("results.id"), unique=True)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[ResultRow] = relationship(back_populates="facts")


class NodeStatesRow(Base):
    __tablename__ = "node_states"
    id: Mapped[int] = mapped_column(primary_key=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("results.id"), unique=True)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[ResultRow] = relationship(back_populates="node_states")


class EndStateRow(Base):
    __tablename__ = "end_states"
    id: Mapped[int] = mapped_column(primary_key=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("results.id"), unique=True)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[ResultRow] = relationship(back_populates="end_state")


class ResponseCacheRow(Base):
    __tablename__ = "response_cache"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    model: Mapped[str] = mapped_column(String(64), index=True)
    value: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class BattleRow(Base):
    __tablename__ = "battles"
    __table_args__ = (UniqueConstraint("run_id", "judge_key", "result_a_id", "result_b_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"), index=True)
    judge_key: Mapped[str] = mapped_column(String(32), index=True)
    case_id: Mapped[str] = mapped_column(String(200))
    repeat: Mapped[int] = mapped_column(Integer, default=0)
    variant_a: Mapped[str] = mapped_column(String(200))
    variant_b: Mapped[str] = mapped_column(String(200))
    result_a_id: Mapped[int] = mapped_column(ForeignKey("results.id"))
    result_b_id: Mapped[int] = mapped_column(ForeignKey("results.id"))
    winner: Mapped[str] = mapped_column(String(20))
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class VoteRow(Base):
    """What makes a person's vote single: one row per person and unordered pair of results
    (low id first), beside the vote's battle row, which keeps the order the pair was shown in.
    Existing databases gain the table; votes stored before it have no row here (the write
    checks the battles too)."""

    __tablename__ = "votes"
    __table_args__ = (
        UniqueConstraint("judge_key", "result_low_id", "result_high_id"),
        CheckConstraint("result_low_id < result_high_id", name="votes_two_results"),
    )
    battle_id: Mapped[int] = mapped_column(
        ForeignKey("battles.id", ondelete="CASCADE"), primary_key=True
    )
    judge_key: Mapped[str] = mapped_column(String(32))
    result_low_id: Mapped[int] = mapped_column(ForeignKey("results.id"))
    result_high_id: Mapped[int] = mapped_column(ForeignKey("results.id"))


class VerdictCacheRow(Base):
    __tablename__ = "verdict_cache"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    judge_key: Mapped[str] = mapped_column(String(32), index=True)
    value: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ScoreRow(Base):
    __tablename__ = "scores"
    __table_args__ = (UniqueConstraint("result_id", "grader"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"), index=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("results.id"))
    grader: Mapped[str] = mapped_column(String(200))
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The scoring rules that made the score (arena.scoring.RULES_VERSION); 0: stored before
    # rules were versioned (migration 0002).
    rules_version: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))


class BaselineRow(Base):
    __tablename__ = "baselines"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MutationRow(Base):
    """One ``arena mutate`` pass: its dataset, variant, score and whole report (JSON)."""

    __tablename__ = "mutations"
    id: Mapped[int] = mapped_column(primary_key=True)
    dataset: Mapped[str] = mapped_column(String(200), index=True)
    variant: Mapped[str] = mapped_column(String(200))
    score: Mapped[float] = mapped_column()
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SchemaReleaseRow(Base):
    """One creation or upgrade of the schema: the revision reached and the agent-arena release
    that wrote it (the newest row names the release a newer database comes from)."""

    __tablename__ = "schema_releases"
    id: Mapped[int] = mapped_column(primary_key=True)
    revision: Mapped[str] = mapped_column(String(32))
    release: Mapped[str] = mapped_column(String(50))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LoadedFileRow(Base):
    """A project file agents of a variant's static version were seen loading at run time
    beyond its static code (``arena.factories._loaded``): its path and first content hash."""

    __tablename__ = "loaded_files"
    __table_args__ = (UniqueConstraint("variant_hash", "path"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    variant_hash: Mapped[str] = mapped_column(String(32), index=True)
    path: Mapped[str] = mapped_column(Text)
    digest: Mapped[str] = mapped_column(String(32))

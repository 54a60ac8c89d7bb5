"""The project's defaults in ``arena.yaml``: the database, golden dataset, variants folder,
simulated-user model, behaviour grader and judge that every ``arena`` command takes when its
own flag is not given (the rest of the file is the gate's)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from arena.project._config import GateConfig, find_config, load_config

SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
"""A ``db`` value without ``scheme://`` ending in one of these is an SQLite file's path."""


class ProjectDefaults(BaseModel):
    """What an ``arena.yaml`` sets for every command; None where the file sets nothing.

    Paths are resolved against the file's folder, and so is a relative SQLite database path,
    so a command run from a subfolder uses the project's files.
    """

    model_config = ConfigDict(extra="forbid")

    source: str | None = Field(None, description="The arena.yaml read (None: none found).")
    db: str | None = Field(
        None, description="Database URL (`db`; a path ending in .db is an SQLite file)."
    )
    dataset: str | None = Field(None, description="Golden dataset JSON (`run.dataset`).")
    variants_dir: str | None = Field(
        None, description="Where variant names are looked up (`run.variants_dir`)."
    )
    user_model: str | None = Field(None, description="Simulated users' model (`run.user_model`).")
    grader: str | None = Field(None, description="Behaviour grader spec (`grader`).")
    judge: str | None = Field(None, description="Judge spec or file (`compare.judge`).")


def project_defaults(config: GateConfig) -> ProjectDefaults:
    """The settings of ``config`` that every command uses, as the file set them."""
    run, compare = config.run, config.compare
    judge = config.judge if "judge" in compare.model_fields_set else None  # none: no judge
    if judge is not None and _is_file(judge, config):
        judge = config.path(judge)
    return ProjectDefaults(
        source=config.source_file,
        db=_database(config.db, config) if config.db else None,
        dataset=config.path(run.dataset) if run.dataset else None,
        variants_dir=config.path(run.variants_dir) if run.variants_dir else None,
        user_model=run.user_model,
        grader=config.grader,
        judge=judge,
    )


def read_project_defaults(path: str | Path | None = None) -> ProjectDefaults:
    """The defaults of the ``arena.yaml`` at ``path``, else of the nearest one up from the
    working directory (empty when there is none); InputError names the file and field."""
    found = Path(path) if path else find_config()
    return project_defaults(load_config(found)) if found else ProjectDefaults()


def _is_file(spec: str, config: GateConfig) -> bool:
    return spec.endswith((".yaml", ".yml", ".json")) and Path(config.path(spec)).is_file()


def _database(url: str, config: GateConfig) -> str:
    """``url``, an SQLite file path made relative to the config's folder; a plain path
    ending in one of :data:`SQLITE_SUFFIXES` (``arena.db``) is that SQLite file (InputError
    naming the file and ``db`` when it is neither)."""
    from sqlalchemy.engine import URL, make_url
    from sqlalchemy.exc import ArgumentError

    from arena.errors import InputError

    if "://" not in url and url.endswith(SQLITE_SUFFIXES):
        path = Path(config.path(str(Path(url).expanduser()))).absolute()
        return URL.create("sqlite", database=str(path)).render_as_string(hide_password=False)
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise InputError(
            "neither a database URL nor an SQLite file path (write e.g. sqlite:///arena.db, "
            "postgresql+psycopg://user@host/dbname, or a path ending in .db, .sqlite or "
            ".sqlite3 such as arena.db)",
            file=config.source_file,
            field="db",
        ) from None
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return url
    if database.startswith("file:") or Path(database).expanduser().is_absolute():
        return url
    absolute = Path(config.path(database)).absolute()
    return parsed.set(database=str(absolute)).render_as_string(hide_password=False)

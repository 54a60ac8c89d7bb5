"""``arena.yaml``: what ``arena gate`` (and ``arena check``) runs and which limits hold, and
the project's database, dataset, variants folder, models and judge, which every ``arena``
command takes from the nearest ``arena.yaml`` (:func:`find_config`, :func:`project_defaults`).

Every field is optional; flags given on the command line override it. Paths are relative to
the file's folder. An unknown key, a wrong type or an out-of-range value is an
:class:`~arena.errors.InputError` naming the file and the field (``rules.max_drop``). See
:data:`EXAMPLE` for every key with its default.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
)

from arena.defaults import BOOTSTRAP_ROUNDS, DEFAULT_JUDGE, TierChoice
from arena.errors import InputError
from arena.gate._limits import AbsoluteLimits, CostLimits
from arena.gate._rule_config import RuleConfig
from arena.inputs.validation import input_error

Verdict = Literal["worse", "inconclusive"]
CONFIG_NAME = "arena.yaml"
"""The file ``arena`` commands read (the nearest one up from the working directory) when no
--config is given."""


class RunSection(BaseModel):
    """What to run: dataset, tier or cases, repeats."""

    model_config = ConfigDict(extra="forbid")

    dataset: str | None = Field(None, description="Golden dataset JSON (default: the shipped).")
    variants_dir: str | None = Field(None, description="Where VARIANT names are looked up.")
    tier: TierChoice = Field(
        "critical", description="The tier to run: critical, standard, pending or all."
    )
    cases: list[str] | None = Field(
        None, description="Only these case ids (default: every case of the tier)."
    )
    repeats: int = Field(1, ge=1, le=100, description="Runs of each case per variant.")
    concurrency: int = Field(2, ge=1, le=64, description="Agent runs at a time.")
    timeout_s: float = Field(600.0, gt=0, description="Seconds one case may take.")
    user_model: str | None = Field(
        None,
        min_length=1,
        description="The model spec that plays the simulated users of conversation cases "
        "whose case names none (default: the local model).",
    )

    @field_validator("user_model")
    @classmethod
    def _model_spec(cls, value: str | None) -> str | None:
        if value is not None:
            from arena.models import ModelConfig

            try:
                ModelConfig(spec=value)
            except ValidationError as exc:  # named run.user_model (or --user-model)
                raise ValueError(exc.errors()[0]["msg"]) from None
        return value


class CompareSection(BaseModel):
    """The pairwise comparison and which of its verdicts fail the gate."""

    model_config = ConfigDict(extra="forbid")

    judge: str | None = Field(DEFAULT_JUDGE, description="Judge spec or file; none skips.")
    margin: float = Field(
        0.05,
        ge=0,
        le=0.5,
        description="Non-inferiority margin: the candidate's win rate may be this far below 0.5.",
    )
    bootstrap: int = Field(
        BOOTSTRAP_ROUNDS, ge=100, description="Bootstrap rounds of the win rate's interval."
    )
    seed: int = Field(0, description="Seed of the bootstrap.")
    fail_on: list[Verdict] = Field(
        default_factory=lambda: list[Verdict](["worse"]),
        description="The compare verdicts that fail the gate.",
    )
    sequential: bool = Field(
        False, description="Decide case by case and stop once the decision is settled."
    )
    batch: int = Field(
        1, ge=1, le=1000, description="Sequential mode: cases run between two looks."
    )
    sequential_seed: int | None = Field(
        None,
        description="Sequential mode: an explicit seed of the case order, recorded as explicit "
        "(default: derived from the dataset and variant versions).",
    )
    boundary: Literal["spending", "anytime"] | None = Field(
        None,
        description="Sequential mode: a new sequence's boundary; null is spending (valid up to "
        "the case budget, futility stops; a rerun may not raise the budget), anytime is the "
        "betting sequence (valid at every number of cases; the budget may grow). A stored "
        "sequence keeps its own.",
    )
    strict_critical: bool = Field(
        False,
        description="Sequential mode: the agents are declared deterministic, so a critical case "
        "the baseline passes in every repeat and the candidate fails in every one blocks at "
        "once, one repeat included (default: only when that is rare between equal agents, or "
        "by the exact test).",
    )


class MutationSection(BaseModel):
    """``arena mutate``'s defaults (a nightly job that requires a mutation score)."""

    model_config = ConfigDict(extra="forbid")

    min_score: float | None = Field(
        None, ge=0, le=1, description="Exit 1 below this mutation score (--min-score)."
    )
    operators: list[str] | None = Field(
        None, min_length=1, description="The mutation operators to apply (--operators); null: all."
    )


class GateConfig(BaseModel):
    """The whole ``arena.yaml``."""

    model_config = ConfigDict(extra="forbid")

    schema_url: str | None = Field(
        None, alias="$schema", exclude=True, description="The JSON Schema, for editors (ignored)."
    )
    baseline: str | None = Field(
        None, description="VARIANT name, variant YAML or baseline JSON file."
    )
    candidate: str | None = Field(None, description="VARIANT name or variant YAML.")
    grader: str | None = Field(None, description="Behaviour grader spec (default: keywords).")
    db: str | None = Field(
        None,
        min_length=1,
        description="The database URL of every command (default: $ARENA_DB_URL, else "
        "sqlite:///arena.db); an SQLite path is relative to this file's folder.",
    )
    run: RunSection = Field(default_factory=RunSection, description="What to run.")
    rules: RuleConfig = Field(
        default_factory=RuleConfig, description="The regression rules against the baseline."
    )
    absolute: AbsoluteLimits = Field(
        default_factory=AbsoluteLimits, description="Minimum pass rates (no baseline needed)."
    )
    budget: CostLimits = Field(
        default_factory=CostLimits, description="Cost, token and latency limits."
    )
    compare: CompareSection = Field(
        default_factory=CompareSection, description="The pairwise comparison by a judge."
    )
    mutation: MutationSection = Field(
        default_factory=MutationSection, description="`arena mutate`'s score and operators."
    )
    report_dir: str = Field("reports", description="Where gate.md and gate.json are written.")
    base_dir: str = Field(".", exclude=True, description="Folder relative paths start from.")
    _source: str | None = PrivateAttr(None)
    _flags: dict[str, str] = PrivateAttr(default_factory=dict)

    @property
    def source_file(self) -> str | None:
        """The ``arena.yaml`` these settings were read from (None: built in code)."""
        return self._source

    def origin(self, field: str) -> tuple[str | None, str]:
        """Where the setting ``field`` (``absolute.min_category_pass_rate``) came from, for an
        error: ``(None, "--flag")`` when a flag set it, else ``(file or None, field)``."""
        flag = self._flags.get(field)
        return (None, flag) if flag else (self._source, field)

    def with_origins(self, source: str | None, flags: dict[str, str]) -> GateConfig:
        """This config, remembering its file and which fields flags set (see origin)."""
        self._source, self._flags = source, dict(flags)
        return self

    def path(self, value: str) -> str:
        """``value`` resolved against the config file's folder (absolute paths unchanged)."""
        return str(Path(self.base_dir) / value) if not Path(value).is_absolute() else value

    @property
    def judge(self) -> str | None:
        """The judge spec, or None when judging is off."""
        spec = self.compare.judge
        return None if spec is None or spec.strip().lower() in ("", "none", "off") else spec


def find_config(start: str | Path | None = None) -> Path | None:
    """The nearest ``arena.yaml``: in ``start`` (default: the working directory) or the
    closest folder above it, as a path relative to the working directory (``arena.yaml``,
    ``../arena.yaml``); None when there is none."""
    import os

    folder = Path(start or Path.cwd()).absolute()
    for place in (folder, *folder.parents):
        candidate = place / CONFIG_NAME
        if candidate.is_file():
            return Path(os.path.relpath(candidate))
    return None


def load_config(path: str | Path) -> GateConfig:
    """Read and validate an ``arena.yaml`` (InputError naming the file and the field)."""
    from arena.inputs.files import load_yaml

    file = Path(path)
    raw = load_yaml(file)  # missing, a folder, not UTF-8, malformed, an alias bomb
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InputError("expected a mapping of settings", file=str(file))
    from arena.factories._imports import add_project_root

    add_project_root(file.parent)  # its folder is where agent factories may import from
    return config_from_dict(raw, source=str(file), base_dir=str(file.parent))


def config_from_dict(
    raw: dict[str, object], *, source: str = CONFIG_NAME, base_dir: str = "."
) -> GateConfig:
    """Validate settings (InputError naming ``source`` and the first bad field)."""
    try:
        config = GateConfig.model_validate({**raw, "base_dir": base_dir}, strict=True)
    except ValidationError as exc:
        raise input_error(exc, file=source) from None
    return config.with_origins(source, {})


EXAMPLE = f"""\
# arena.yaml: what `arena gate` runs and which limits hold (flags override every key).
baseline: baselines/baseline.json   # a baseline JSON file, a VARIANT name or a variant YAML
candidate: baseline                 # a VARIANT name (in run.variants_dir) or a variant YAML
grader: null                        # behaviour grader: a judge spec, null = keyword rules
db: null                            # every command's database (--db, $ARENA_DB_URL win)
run:
  dataset: null                     # golden dataset JSON; null = the shipped one
  variants_dir: null                # null = data/variants
  tier: critical                    # critical | standard | pending | all
  cases: null                       # or a list of case ids
  repeats: 1
  concurrency: 2
  timeout_s: 600
  user_model: null                  # plays simulated users (conversation cases); null = local
rules:
  block: [suite_drop, critical_broken, critical_missing, happy_path_fail, category_broken,
          critical_failing]         # critical_failing: a changed case no baseline could run
  max_drop: 0.05                    # suite-score drop tolerated
  case_drop: 0.1                    # per-case mean-score drop that warns
  alpha: 0.05                       # significance of drops; 95% intervals
  bootstrap: 2000
  seed: 0
  flaky_blocks: false               # cases flaky in the baseline do not block
absolute:                           # limits that need no baseline
  min_pass_rate: null
  min_critical_pass_rate: null
  min_tier_pass_rate: {{}}            # e.g. {{critical: 0.75}}
  min_category_pass_rate: {{}}        # e.g. {{happy_path: 1.0}}
budget:
  max_cost_per_query: null          # US dollars
  max_tokens_per_query: null
  max_p90_latency_s: null
  max_cost_increase: null           # relative to the baseline: 0.2 = at most +20%
  max_tokens_increase: null
  max_latency_increase: null
compare:
  judge: {DEFAULT_JUDGE}     # none = skip the pairwise judge
  margin: 0.05
  bootstrap: 1000
  seed: 0
  fail_on: [worse]                  # add inconclusive to require a decided verdict
  sequential: false                 # true: case by case, stop once settled (docs/sequential.md)
  batch: 1                          # cases between two looks when sequential
  sequential_seed: null             # null: the order's seed is derived from the run
  boundary: null                    # null: spending (futility stops); anytime: budget may grow
  strict_critical: false            # true: agents deterministic, one failed run blocks
mutation:                           # arena mutate (docs/mutation.md)
  min_score: null                   # exit 1 below this mutation score
  operators: null                   # null = every operator
report_dir: reports                 # gate.md and gate.json
"""
"""An ``arena.yaml`` with every key at its default (``arena init-ci`` writes a variant)."""

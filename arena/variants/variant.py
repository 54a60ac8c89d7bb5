"""Variants: the agent configurations under test, loaded from YAML."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from arena.agents._architectures import AGENTS
from arena.errors import InputError
from arena.inputs.files import load_yaml, read_text
from arena.inputs.validation import StrictInt, input_error
from arena.models._config import ModelConfig
from arena.paths import data_dir
from arena.variants.version import VariantVersion, version_of

ARCHITECTURES = ("react", "supervisor")
PROMPT_ROOTS_ENV = "ARENA_PROMPT_ROOTS"
MAX_VARIANT_BYTES = 1_000_000
MAX_PROMPT_BYTES = 1_000_000
SUPERVISOR_ROLES = ("supervisor", "researcher", "analyst", "writer")


class Variant(BaseModel):
    """One candidate agent: architecture, model, prompt, tools and limits.

    ``agent`` is ``react``, ``supervisor`` or an import path ``package.module:factory``
    naming a function that builds your own agent (its ``tools:`` select among the tools the
    factory declares, its ``params:`` are passed to it). ``system_prompt`` holds the resolved
    text (a ``system_prompt_file`` is read at load time).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_url: str | None = Field(
        None,
        alias="$schema",
        exclude=True,
        description="The JSON Schema of this file, for editors (ignored).",
    )
    name: str = Field(
        pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$",
        description="The variant's name, unique in a run (letters, digits, '_', '.', '-').",
    )
    description: str = Field("", description="One line on what this variant changes.")
    agent: str = Field(
        "react",
        description="The agent architecture: 'react', 'supervisor', another registered "
        "architecture, or 'package.module:factory' for your own agent.",
    )
    model: ModelConfig = Field(description="The chat model the agent runs on.")
    system_prompt: str = Field("", description="The agent's system prompt ('' sends none).")
    tools: list[str] | None = Field(
        None,
        description="Enabled tools (the built-in agent's, or those your factory declares); "
        "None means all.",
    )
    params: dict[str, Any] = Field(
        default_factory=dict,
        exclude_if=lambda params: not params,
        description="Settings passed to your own factory (ctx.params), validated against "
        "the params model it declares; part of the variant's version.",
    )
    max_steps: StrictInt = Field(
        6, ge=1, le=50, description="The tool-call budget per query, then a forced final answer."
    )
    max_iterations: StrictInt = Field(6, ge=1, le=50, description="Supervisor routing limit.")
    roles: dict[str, ModelConfig] = Field(
        default_factory=dict,
        exclude_if=lambda roles: not roles,
        description="Per-role models (supervisor roles, or your factory's): each entry "
        "overrides fields of ``model``; other roles use ``model``.",
    )

    @model_validator(mode="before")
    @classmethod
    def _roles_inherit_model(cls, raw: Any) -> Any:
        if not isinstance(raw, dict) or not isinstance(raw.get("roles"), dict):
            return raw
        base = raw.get("model")
        base = base.model_dump() if isinstance(base, ModelConfig) else base
        if not isinstance(base, dict):
            return raw
        roles = {
            role: {
                **base,
                **(cfg.model_dump(exclude_unset=True) if isinstance(cfg, ModelConfig) else cfg),
            }
            if isinstance(cfg, dict | ModelConfig)
            else cfg
            for role, cfg in raw["roles"].items()
        }
        return {**raw, "roles": roles}

    @field_validator("roles")
    @classmethod
    def _known_roles(
        cls, roles: dict[str, ModelConfig], info: ValidationInfo
    ) -> dict[str, ModelConfig]:
        agent = info.data.get("agent")
        if roles and agent == "react":
            raise ValueError(
                "roles apply to the supervisor agent (or your own factory), not to react"
            )
        unknown = sorted(set(roles) - set(SUPERVISOR_ROLES))
        if agent == "supervisor" and unknown:
            raise ValueError(
                f"unknown role(s) {', '.join(unknown)}; the supervisor's roles "
                f"are {', '.join(SUPERVISOR_ROLES)}"
            )
        return roles

    @field_validator("params")
    @classmethod
    def _params_for_factories(cls, params: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
        if params and info.data.get("agent") in ARCHITECTURES:
            raise ValueError("params are passed to your own factory, not to react or supervisor")
        return params

    _source_file: str | None = PrivateAttr(None)
    _version: VariantVersion | None = PrivateAttr(None)

    def model_for(self, role: str) -> ModelConfig:
        """The model of one role: its entry in ``roles``, else ``model``."""
        return self.roles.get(role, self.model)

    @property
    def source_file(self) -> str | None:
        """The YAML file this variant was loaded from (None when built in code)."""
        return self._source_file

    @field_validator("agent")
    @classmethod
    def _valid_agent(cls, value: str) -> str:
        if value in ARCHITECTURES or (":" not in value and value in AGENTS):
            return value
        module, sep, attr = value.partition(":")
        dotted = all(part.isidentifier() for part in module.split("."))
        if not sep or not dotted or not attr.isidentifier():
            raise ValueError(
                f"agent must be one of {', '.join(AGENTS.names())} or "
                f"'package.module:factory', got {value!r}"
            )
        return value

    @property
    def version(self) -> VariantVersion:
        """Everything that decides this variant's answers (config, agent code, tools, models),
        computed once per object; a variant read back from storage keeps its stored version."""
        if self._version is None:
            self._version = version_of(self)
        return self._version

    @property
    def version_hash(self) -> str:
        """The hash of :attr:`version`: results are stored and reused under it."""
        return self.version.hash

    def with_version(self, version: VariantVersion) -> Variant:
        """This variant labelled with a known (stored) version instead of computing one."""
        self._version = version
        return self

    def model_copy(self, *, update: Any = None, deep: bool = False) -> Variant:
        """A copy; an edited copy computes its own version."""
        copy = super().model_copy(update=update, deep=deep)
        if update:
            copy._version = None
        return copy


def load_variant(path: str | Path) -> Variant:
    """Load and validate a variant YAML file; prompt files resolve relative to it.

    Args:
        path: the variant's YAML file.

    Returns:
        The variant, its tools checked against its agent (or its factory's declaration).

    Raises:
        InputError: naming the file, the variant and the field, for unreadable YAML, a
            field that fails validation, or an unknown tool.
    """
    file = Path(path)
    raw = load_yaml(file, limit=MAX_VARIANT_BYTES)
    if not isinstance(raw, dict):
        raise InputError("expected a mapping of variant fields", file=str(file))
    name = raw.get("name") if isinstance(raw.get("name"), str) else None
    raw = _resolve_prompt(file, raw)
    try:
        variant = Variant.model_validate(raw)
    except ValidationError as exc:
        raise input_error(exc, file=str(file), variant=name and name[:80]) from None
    variant._source_file = str(file)
    if variant.agent in ARCHITECTURES:
        _check_tools(file, variant)
    elif ":" in variant.agent:  # a factory (a registered architecture is checked by name)
        from arena.factories._factories import vet_variant

        vet_variant(variant)  # imports the factory: a bad import, tools: or params: fails here
    return variant


def prompt_roots(variant_file: Path) -> list[Path]:
    """The folders a variant's ``system_prompt_file`` may come from.

    The variant file's own folder (and everything below it); the data root
    (``ARENA_DATA_DIR``, default the repository's ``data/``) when the variant lives inside it;
    and each folder listed in ``ARENA_PROMPT_ROOTS`` (os.pathsep-separated): the explicit
    opt-out for prompts kept elsewhere. A variant file cannot widen this itself.
    """
    folder = variant_file.resolve().parent
    roots = [folder]
    data = data_dir().resolve()
    if folder.is_relative_to(data):
        roots.append(data)
    extra = os.environ.get(PROMPT_ROOTS_ENV, "")
    roots += [Path(p).expanduser().resolve() for p in extra.split(os.pathsep) if p.strip()]
    return roots


def _resolve_prompt(file: Path, raw: dict[str, Any]) -> dict[str, Any]:
    field = "system_prompt_file"
    prompt_file = raw.pop(field, None)
    if prompt_file is None:
        return raw
    if raw.get("system_prompt"):
        raise InputError(
            "give system_prompt or system_prompt_file, not both", file=str(file), field=field
        )
    if not isinstance(prompt_file, str) or not prompt_file.strip() or "\x00" in prompt_file:
        raise InputError("must be the relative path of a text file", file=str(file), field=field)
    try:
        prompt_path = (file.parent / prompt_file).resolve()  # symbolic links resolved first
    except (OSError, RuntimeError) as exc:  # a name too long, a loop of links
        raise InputError(f"bad prompt file path: {exc}", file=str(file), field=field) from None
    roots = prompt_roots(file)
    if not any(prompt_path.is_relative_to(root) for root in roots):
        raise InputError(
            f"prompt file {prompt_file!r} is outside the allowed folders "
            f"({', '.join(map(str, roots))}); list its folder in {PROMPT_ROOTS_ENV} to allow it",
            file=str(file),
            field=field,
        )
    if not prompt_path.exists():
        raise InputError(f"prompt file {prompt_path} not found", file=str(file), field=field)
    if not prompt_path.is_file():
        raise InputError(
            f"prompt file {prompt_path} is not a regular file", file=str(file), field=field
        )
    try:
        text = read_text(prompt_path, limit=MAX_PROMPT_BYTES)
    except InputError as exc:
        raise InputError(
            f"prompt file {prompt_path}: {exc.message}", file=str(file), field=field
        ) from None
    raw["system_prompt"] = text.strip()
    return raw


def _check_tools(file: Path, variant: Variant) -> None:
    if variant.tools is None:
        return
    from arena.defaults import TOOL_NAMES

    unknown = sorted(set(variant.tools) - set(TOOL_NAMES))
    if unknown:
        raise InputError(
            f"unknown tool(s) {', '.join(unknown)}; available: {', '.join(TOOL_NAMES)}",
            file=str(file),
            variant=variant.name,
            field="tools",
        )


def load_variants(paths: list[str] | list[Path]) -> list[Variant]:
    """Load several variant files; names must be unique.

    Args:
        paths: the variants' YAML files.

    Returns:
        The variants, in the order of ``paths``.

    Raises:
        InputError: as :func:`load_variant`, or when two files name the same variant.
    """
    variants = [load_variant(p) for p in paths]
    seen: dict[str, str] = {}
    for path, variant in zip(paths, variants, strict=True):
        if variant.name in seen:
            raise InputError(
                f"variant name {variant.name!r} also used by {seen[variant.name]}",
                file=str(path),
                field="name",
            )
        seen[variant.name] = str(path)
    return variants

"""Variants: the agent configurations under test, loaded from YAML."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from arena.errors import InputError
from arena.models.config import ModelConfig

ARCHITECTURES = ("react", "supervisor")


class Variant(BaseModel):
    """One candidate agent: architecture, model, prompt, tools and limits.

    ``agent`` is ``react``, ``supervisor`` or an import path ``package.module:factory``
    naming a function that builds your own agent. ``system_prompt`` holds the resolved text
    (a ``system_prompt_file`` is read at load time).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    description: str = ""
    agent: str = "react"
    model: ModelConfig
    system_prompt: str = ""
    tools: list[str] | None = Field(None, description="Enabled tools; None means all.")
    max_steps: int = Field(6, ge=1, le=50)
    max_iterations: int = Field(6, ge=1, le=50, description="Supervisor routing limit.")

    @field_validator("agent")
    @classmethod
    def _valid_agent(cls, value: str) -> str:
        if value in ARCHITECTURES:
            return value
        module, sep, attr = value.partition(":")
        if not sep or not module or not attr.isidentifier():
            raise ValueError(f"agent must be one of {', '.join(ARCHITECTURES)} or "
                             f"'package.module:factory', got {value!r}")
        return value

    @property
    def version_hash(self) -> str:
        """Hash of the full resolved config (prompt text included, description excluded)."""
        payload = self.model_dump(mode="json", exclude={"description"})
        blob = json.dumps(payload, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]


def load_variant(path: str | Path) -> Variant:
    """Load and validate a variant YAML file; prompt files resolve relative to it."""
    file = Path(path)
    try:
        raw = yaml.safe_load(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("no such file", file=str(file)) from None
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {exc}", file=str(file)) from None
    if not isinstance(raw, dict):
        raise InputError("expected a mapping of variant fields", file=str(file))
    raw = _resolve_prompt(file, raw)
    try:
        variant = Variant.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"])
        raise InputError(err["msg"], file=str(file), case=raw.get("name"), field=field) from None
    _check_tools(file, variant)
    return variant


def _resolve_prompt(file: Path, raw: dict[str, Any]) -> dict[str, Any]:
    prompt_file = raw.pop("system_prompt_file", None)
    if prompt_file is None:
        return raw
    if raw.get("system_prompt"):
        raise InputError("give system_prompt or system_prompt_file, not both", file=str(file),
                         field="system_prompt_file")
    prompt_path = (file.parent / str(prompt_file)).resolve()
    try:
        raw["system_prompt"] = prompt_path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise InputError(f"prompt file {prompt_path} not found", file=str(file),
                         field="system_prompt_file") from None
    return raw


def _check_tools(file: Path, variant: Variant) -> None:
    if variant.tools is None or variant.agent not in ARCHITECTURES:
        return
    from arena.agents.research.tools import TOOL_NAMES

    unknown = sorted(set(variant.tools) - set(TOOL_NAMES))
    if unknown:
        raise InputError(f"unknown tool(s) {', '.join(unknown)}; available: "
                         f"{', '.join(TOOL_NAMES)}", file=str(file), case=variant.name,
                         field="tools")


def load_variants(paths: list[str] | list[Path]) -> list[Variant]:
    """Load several variant files; names must be unique."""
    variants = [load_variant(p) for p in paths]
    seen: dict[str, str] = {}
    for path, variant in zip(paths, variants, strict=True):
        if variant.name in seen:
            raise InputError(f"variant name {variant.name!r} also used by {seen[variant.name]}",
                             file=str(path), field="name")
        seen[variant.name] = str(path)
    return variants

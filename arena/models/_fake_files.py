"""Scripted models from a YAML or JSON file: a whole pipeline without any model.

``arena --fake-scripts FILE ...`` (or ``ARENA_FAKE_SCRIPTS=FILE``) loads the file's
``scripts`` as ``fake:NAME`` models, and its ``models`` mapping plays a script *instead of* a
real model spec (so the variants and the judge keep their real specs). Each script is a list
of rules; a model call plays the first rule whose ``when`` words all appear in the latest
user message (and ``system`` in the system prompt), and within it the reply of its turn: the
first reply to the question, the second once a tool answered, and so on (the last text reply
repeats). Replies are text or a tool call ``{tool: NAME, args: {...}}``. A played model's
cache identity names the script and the file's hash, so its replies never pass for the real
model's.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from arena.errors import InputError
from arena.inputs.validation import input_error
from arena.models._fake import MISS_LOADERS, register_fake

ENV = "ARENA_FAKE_SCRIPTS"
MAX_SCRIPT_BYTES = 5_000_000


class ToolCallReply(BaseModel):
    """A reply that calls one tool."""

    model_config = ConfigDict(extra="forbid")

    tool: str = Field(min_length=1)
    args: dict[str, Any] = Field(default_factory=dict)


class FakeRule(BaseModel):
    """Replies for the conversations whose latest user message holds every ``when`` word."""

    model_config = ConfigDict(extra="forbid")

    when: list[str] = Field(
        default_factory=list,
        description="Words (case-insensitive) that must all appear in the latest user "
        "message; empty matches every conversation.",
    )
    system: str | None = Field(
        None, description="Text (case-insensitive) the system prompt must contain."
    )
    replies: list[str | ToolCallReply] = Field(
        min_length=1, description="The reply of each turn: text or a tool call."
    )

    @field_validator("when", mode="before")
    @classmethod
    def _one_word(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class FakeScriptsFile(BaseModel):
    """A file of scripted models (``arena schema fake-scripts``)."""

    model_config = ConfigDict(extra="forbid")

    schema_url: str | None = Field(None, alias="$schema", exclude=True)
    models: dict[str, str] = Field(
        default_factory=dict,
        description="Model spec -> script played instead of that model (e.g. "
        "'local:qwen2.5-coder-1.5b': kitchen).",
    )
    scripts: dict[str, list[FakeRule]] = Field(description="Script name -> its rules.")


def load_fake_scripts(path: str | Path) -> FakeScriptsFile:
    """Read and validate a scripts file (InputError naming the file and the field)."""
    from arena.inputs.files import load_json, load_yaml

    file = Path(path)
    raw = load_json(file) if file.suffix == ".json" else load_yaml(file, limit=MAX_SCRIPT_BYTES)
    if not isinstance(raw, dict):
        raise InputError("expected a mapping with 'scripts'", file=str(file))
    try:
        parsed = FakeScriptsFile.model_validate(raw)
    except ValidationError as exc:
        raise input_error(exc, file=str(file)) from None
    missing = sorted(set(parsed.models.values()) - set(parsed.scripts))
    if missing:
        raise InputError(f"no script named {', '.join(missing)}", file=str(file), field="models")
    return parsed


def use_fake_scripts(path: str | Path) -> FakeScriptsFile:
    """Load a scripts file and make it the active one (for this process and its children)."""
    parsed = load_fake_scripts(path)
    os.environ[ENV] = str(Path(path).resolve())
    _ACTIVE.clear()
    _register(parsed)
    return parsed


_ACTIVE: dict[str, tuple[FakeScriptsFile, str]] = {}


def active_scripts() -> tuple[FakeScriptsFile, str] | None:
    """The active file (``ARENA_FAKE_SCRIPTS``) and its content hash, loaded once."""
    path = os.environ.get(ENV)
    if not path:
        return None
    if path not in _ACTIVE:
        parsed = load_fake_scripts(path)
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]
        _ACTIVE.clear()
        _ACTIVE[path] = (parsed, digest)
        _register(parsed)
    return _ACTIVE[path]


def played_by(spec: str) -> str | None:
    """The script the active file plays instead of the model ``spec`` (None: the real one)."""
    active = active_scripts()
    return None if active is None else active[0].models.get(spec)


def identity_of(spec: str) -> str | None:
    """What a scripted model's identity adds: the name and content hash of the script it plays.

    For a spec the active file maps to a script (``models:``) and for ``fake:NAME`` naming one
    of its scripts; None otherwise. Editing a script's replies changes it (so cached replies and
    stored results of the old script are never reused); editing another script does not.
    """
    active = active_scripts()
    if active is None:
        return None
    parsed = active[0]
    script = parsed.models.get(spec)
    if script is None and spec.startswith("fake:"):
        script = spec.removeprefix("fake:")
    if script is None or script not in parsed.scripts:
        return None
    rules = [rule.model_dump(mode="json") for rule in parsed.scripts[script]]
    digest = hashlib.sha256(json.dumps(rules, sort_keys=True).encode()).hexdigest()[:12]
    return f"{script}@{digest}"


def _register(parsed: FakeScriptsFile) -> None:

    for name, rules in parsed.scripts.items():
        register_fake(name, [_player(name, rules)], cycle=True)


def _player(name: str, rules: list[FakeRule]) -> Any:
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

    from arena.errors import ModelError

    def play(messages: list[BaseMessage]) -> Any:
        humans = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
        last = humans[-1] if humans else -1
        question = str(messages[last].content).lower() if humans else ""
        system = " ".join(str(m.content) for m in messages if isinstance(m, SystemMessage)).lower()
        turn = sum(isinstance(m, AIMessage) for m in messages[last + 1 :])
        for rule in rules:
            if all(w.lower() in question for w in rule.when) and (
                rule.system is None or rule.system.lower() in system
            ):
                return _reply(rule, turn)
        raise ModelError(f"fake script {name!r}: no rule matches {question[:80]!r}")

    return play


def _reply(rule: FakeRule, turn: int) -> Any:
    if turn < len(rule.replies):
        reply = rule.replies[turn]
    else:
        reply = rule.replies[-1]
        if isinstance(reply, ToolCallReply):  # a tool call repeated forever would loop
            from arena.errors import ModelError

            raise ModelError(f"fake script exhausted after {len(rule.replies)} replies")
    if isinstance(reply, ToolCallReply):
        return {"tool": reply.tool, "args": reply.args, "id": f"call_{reply.tool}_{turn}"}
    return reply


MISS_LOADERS.append(active_scripts)

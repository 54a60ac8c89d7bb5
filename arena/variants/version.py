"""A variant's version: everything that decides its answers, hashed part by part.

A stored result is reused only when its variant's version is unchanged, and the version covers:

- ``config``: the resolved variant file (model settings, prompt text, tools, params, limits);
- ``code``: the agent's code, file by file (:mod:`arena.factories._fingerprint`);
- ``tools``: the tools the variant enables (name, description, schema, source);
- ``models``: each model's identity (spec, sampling, endpoint, the local chat template, and the
  content of a scripted model's script);
- ``loaded``: the project files its agents were seen loading at run time beyond ``code`` (a
  dynamic import, :mod:`arena.factories._loaded`), with their content now: a file edited
  since it was recorded makes a new version;
- ``answers``: for a contestant whose answers were read, not made (production's answers in a
  traces file, an answer file), a hash of everything read (:func:`content_version`): a changed
  answer is a new contestant, so nothing stored or judged under the old one is reused.

Because the parts are kept, two versions can say *what* changed ("agent code changed:
shopbot/agent.py"), which the run summary, ``arena show`` and the gate report print.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

CONFIG_CHANGED = "configuration changed (prompt, model settings, tools:, params: or limits)"
MODEL_PARTS = "spec, sampling, endpoint, chat template or scripted replies"
ANSWERS_CHANGED = "answers changed (the answers read from its file)"
LEGACY = "legacy"
"""The ``scheme`` of a version stored before code was versioned: only its hash is known."""


class VariantVersion(BaseModel):
    """What a variant's answers depend on, each part hashed; :attr:`hash` sums them up."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hash: str = Field(description="The version hash results are stored under (12 hex digits).")
    scheme: str = Field("v2", description="How the hash was made ('legacy': config only).")
    config: str = Field("", description="Hash of the resolved variant configuration.")
    code: dict[str, str] = Field(
        default_factory=dict, description="The agent's files: relative path -> content hash."
    )
    tools: dict[str, str] = Field(
        default_factory=dict, description="Enabled tools: name -> hash of its definition."
    )
    models: dict[str, str] = Field(
        default_factory=dict, description="'model' and each role -> the model's identity."
    )
    answers: str = Field(
        "",
        exclude_if=lambda v: not v,
        description="Hash of the answers read from a file (production's traces, an answer "
        "file); '' for a variant that makes its answers.",
    )
    loaded: dict[str, str] = Field(
        default_factory=dict,
        exclude_if=lambda v: not v,
        description="Project files its agents loaded at run time beyond 'code' (a dynamic "
        "import): relative path -> content hash.",
    )

    @classmethod
    def build(
        cls,
        config: dict[str, Any],
        code: dict[str, str],
        tools: dict[str, str],
        models: dict[str, str],
        answers: str = "",
        loaded: dict[str, str] | None = None,
    ) -> VariantVersion:
        """The version of a resolved config with its code, tools and models (the hash of the
        answers read from a file and the files loaded at run time enter the hash only when
        there are some)."""
        made = cls(
            hash="",
            config=_digest(config),
            code=code,
            tools=tools,
            models=models,
            answers=answers,
            loaded=loaded or {},
        )
        return made.model_copy(update={"hash": made._parts_hash(with_loaded=True)})

    def _parts_hash(self, *, with_loaded: bool) -> str:
        parts: dict[str, Any] = {"config": self.config, "code": self.code, "tools": self.tools}
        parts["models"] = self.models
        if self.answers:
            parts["answers"] = self.answers
        if with_loaded and self.loaded:
            parts["loaded"] = self.loaded
        return _digest(parts)[:12]

    @property
    def static_hash(self) -> str:
        """The hash without the files loaded at run time: what those files are recorded
        under (:mod:`arena.factories._loaded`)."""
        return self.hash if self.scheme == LEGACY else self._parts_hash(with_loaded=False)

    def covering(self, recorded: dict[str, str], now: dict[str, str]) -> VariantVersion:
        """This (static) version covering files its runs loaded at run time: ``recorded`` is
        their content hash when first recorded, ``now`` their content hash now. Unchanged:
        this version, labelled with them; one changed: a new version hashing them."""
        if now == recorded:
            return self.model_copy(update={"loaded": dict(now)})
        changed = self.model_copy(update={"loaded": dict(now)})
        return changed.model_copy(update={"hash": changed._parts_hash(with_loaded=True)})

    @classmethod
    def legacy(cls, stored_hash: str) -> VariantVersion:
        """A version stored before code was versioned (its parts are unknown)."""
        return cls(hash=stored_hash, scheme=LEGACY)

    def changes_since(self, old: VariantVersion | None) -> list[str]:
        """What differs from ``old``, one line per part ("agent code changed: a.py, b.py");
        empty when the versions are equal."""
        if old is None:
            return ["first run of this variant"]
        if old.hash == self.hash:
            return []
        if LEGACY in (old.scheme, self.scheme):
            return ["stored before agent code was versioned: run again once under the new version"]
        lines = []
        if old.config != self.config:
            lines.append(
                "configuration changed (prompt, model settings, tools:, params: or limits)"
            )
        if old.answers != self.answers:
            lines.append(ANSWERS_CHANGED)
        lines += _named(
            "agent code changed", {**old.loaded, **old.code}, {**self.loaded, **self.code}
        )
        lines += _named("tool changed", old.tools, self.tools)
        models = _named("model changed", old.models, self.models)
        lines += [
            f"{m} (spec, sampling, endpoint, chat template or scripted replies)" for m in models
        ]
        return lines or ["version changed"]


def _named(what: str, old: dict[str, str], new: dict[str, str]) -> list[str]:
    names = sorted(n for n in old.keys() | new.keys() if old.get(n) != new.get(n))
    if not names:
        return []
    shown = ", ".join(
        f"{n} (added)" if n not in old else f"{n} (removed)" if n not in new else n
        for n in names[:8]
    )
    more = f" and {len(names) - 8} more" if len(names) > 8 else ""
    return [f"{what}: {shown}{more}"]


def _digest(value: Any) -> str:
    blob = json.dumps(value, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def version_of(variant: Any) -> VariantVersion:
    """The version of an ``arena.variants.variant.Variant``: imports its factory to read its
    code and tools (InputError naming the variant file if that fails)."""
    config = variant.model_dump(mode="json", exclude={"description"})
    models = {"model": variant.model.cache_identity()}
    models.update({role: cfg.cache_identity() for role, cfg in sorted(variant.roles.items())})
    code, tools = _agent_parts(variant)
    return VariantVersion.build(config, code, tools, models)


def content_version(variant: Any, content: Any) -> VariantVersion:
    """The version of a variant whose answers were read from a file (production's answers in
    a traces file, an answer file): its own version plus a hash of ``content`` (everything
    read for it, JSON-serialisable), so a changed answer, tool call or error is a new
    version."""
    base = version_of(variant)
    return VariantVersion.build(
        variant.model_dump(mode="json", exclude={"description"}),
        base.code,
        base.tools,
        base.models,
        answers=_digest(content),
    )


def _agent_parts(variant: Any) -> tuple[dict[str, str], dict[str, str]]:
    from arena.factories._fingerprint import builtin_agent_files, package_files, tool_digests
    from arena.models.providers import PROVIDERS

    if not PROVIDERS.lookup(variant.model.provider).is_callable:
        return {}, {}  # answers read from a file or given by a person: no code runs
    if variant.agent in ("react", "supervisor"):
        return builtin_agent_files(), {}
    from arena.agents._architectures import AGENTS
    from arena.factories._factories import vet_variant

    spec = vet_variant(variant)
    factory = AGENTS.lookup(variant.agent) if ":" not in variant.agent else None
    module = variant.agent.partition(":")[0] if factory is None else factory.__module__
    tools = {} if spec.tools is None else tool_digests(spec.select(variant.tools))
    return package_files(module), tools

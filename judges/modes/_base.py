"""What a judge mode is: how it asks, how it reads the reply, how its two orders combine."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from langchain_core.messages import AIMessage, BaseMessage

from arena.errors import InputError
from arena.models._config import ModelConfig
from arena.vocabulary import Label
from judges._orders import Outcome, agreement_rule
from judges._prompts import templates_of
from judges._types import JudgeSpec, PairRequest, Seat, Verdict
from judges.modes._legacy import legacy_surface
from judges.modes._registry import JUDGE_MODES

if TYPE_CHECKING:
    from arena.golden import GoldenCase


class UnreadableReply(Exception):
    """The judge model answered, but its reply cannot be read as a verdict.

    The judge removes ``replies`` from the response cache, so a rerun asks again, and records
    the judgement as an error (never a tie or a win).
    """

    def __init__(self, message: str, *replies: AIMessage) -> None:
        super().__init__(message)
        self.replies = replies


class Asker(Protocol):
    """The judge's model, as a mode sees it."""

    @property
    def spec(self) -> JudgeSpec:
        """The judge being run."""
        ...

    async def ask(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        """One model call (cached, retried on transient errors); ``kwargs`` override the
        model's call parameters (e.g. ``max_tokens``)."""
        ...


@dataclass(frozen=True)
class Reading:
    """What a mode read from the judge's reply for one order."""

    label: Label
    p_first: float | None = None
    rationale: str = ""
    raw: str = ""
    calls: int | None = None  # model calls the verdict rests on (default: the calls made)
    details: dict[str, Any] = field(default_factory=dict)
    """The mode's own findings, JSON-safe; stored as ``Verdict.details``."""


class JudgeMode(ABC):
    """One way of judging an ordered pair. Subclass it and decorate it with
    ``@judge_mode(name, summary)`` (:mod:`arena.extend`); the registry sets ``name`` and
    ``summary``.

    The verdict cache key hashes :meth:`conversations` and the mode's :meth:`templates`:
    keep every prompt text in one of them. A mode owns its templates: upper-case constants
    of its own prompts module (or of the mode's module), named in :attr:`prompt_modules`
    with the shared :mod:`judges._prompts`; editing one re-asks this mode's verdicts only.

    A mode owns its extra inputs and findings: :meth:`prepare` reads what it needs from the
    golden case into ``PairRequest.mode_inputs``; :meth:`read` may return ``details`` (kept
    as ``Verdict.details`` and stored with the battle), which :meth:`details_lines` renders
    for ``arena show`` and :meth:`details_rows` for the app. The core types carry no mode's
    fields.
    """

    name: ClassVar[str] = ""  # set by the registry
    summary: ClassVar[str] = ""  # set by the registry: one line, shown in ``arena --help``
    needs_logprobs: ClassVar[bool] = False
    #: Whether each order's verdict depends on which answer is shown first (a tie margin can
    #: then be calibrated from the disagreement between the orders).
    positional: ClassVar[bool] = True
    #: The modules this mode's prompts are made of: every upper-case text or number constant
    #: of each is one of its templates (:func:`judges._prompts.templates_of`), read when its
    #: judge's identity is computed. None: the mode does not say, and every template of the
    #: built-in modes counts, as before modes owned their templates
    #: (:func:`judges.modes._legacy.legacy_surface`).
    prompt_modules: ClassVar[tuple[ModuleType, ...] | None] = None

    @abstractmethod
    def conversations(self, request: PairRequest) -> list[list[BaseMessage]]:
        """The conversations this mode opens to judge one ordered pair."""

    @abstractmethod
    async def read(self, asker: Asker, request: PairRequest) -> Reading:
        """Ask and read one order; raise :class:`UnreadableReply` when it cannot be read."""

    def templates(self) -> dict[str, str]:
        """Every template this mode's prompts are made of, by name, read now: they enter its
        judge's identity (:func:`judges._identity.identity_templates`), and no other mode's.
        Default: those of :attr:`prompt_modules`. Override it when a mode borrows another
        mode's prompts (``auto`` and ``blend`` take their delegates')."""
        if self.prompt_modules is None:
            return legacy_surface()
        return templates_of(*self.prompt_modules)

    def prepare(self, case: GoldenCase, *, with_trajectory: bool) -> dict[str, Any]:
        """What this mode needs from the golden case besides the query, reference and
        expectations every mode gets: ``PairRequest.mode_inputs`` (JSON-safe; default none).
        ``with_trajectory``: the judge sees both answers' tool calls."""
        return {}

    def details_lines(self, details: dict[str, Any], seat: Seat) -> list[str]:
        """A verdict's ``details`` about the answer in ``seat``, as plain text lines for
        ``arena show`` (default: none)."""
        return []

    def details_rows(self, details: dict[str, Any], seat: Seat) -> list[dict[str, Any]]:
        """A verdict's ``details`` about the answer in ``seat``, as table rows for the app
        (shown as a table, never as markdown; default: none)."""
        return []

    def combine(self, ab: Verdict, ba: Verdict, tie_margin: float | None = None) -> Outcome:
        """The two orders' verdicts as one outcome (default: the agreement rule).

        ``tie_margin`` overrides the spec's for modes that read probabilities.
        """
        return agreement_rule(ab, ba)

    def model_config(self, config: ModelConfig) -> ModelConfig:
        """The judge's model config: temperature 0; logprobs modes read one token's logprobs."""
        update: dict[str, Any] = {"temperature": 0.0}
        if self.needs_logprobs:
            update.update(
                max_tokens=1, extra={**config.extra, "logprobs": True, "top_logprobs": 10}
            )
        return config.model_copy(update=update)

    def check(self, spec: JudgeSpec) -> None:
        """InputError (naming the judge) if the judge's provider cannot serve this mode."""
        if not self.needs_logprobs:
            return
        from arena.models.providers import PROVIDERS

        provider = spec.model.provider
        if not PROVIDERS.lookup(provider).supports_logprobs:
            raise InputError(
                f"judge mode {self.name!r} reads token log-probabilities, which "
                f"provider {provider!r} ({spec.model.spec}) cannot return; use "
                f"{spec.model.spec}/text",
                field="judge",
            )


JUDGE_MODES.declare_base(JudgeMode)

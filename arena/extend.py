"""Everything a plugin needs, from one module: the seven registries and their decorators, the
base classes, what they receive and what they return, and the errors.

A plugin imports only from here (``from arena.extend import GoldenCheck, golden_check``);
the modules these names come from may move. Names load on first use, so importing this
module is cheap. See docs/extending.md.

========================  ===================================  ===========================
kind                      base / type                          decorator
========================  ===================================  ===========================
model provider            :class:`Provider`                    :func:`model_provider`
judge mode                :class:`JudgeMode`                   :func:`judge_mode`
rating method             :class:`RatingMethod`                :func:`rating_method`
golden check              :class:`GoldenCheck`                 :func:`golden_check`
agent architecture        :data:`AgentFactory`                 :func:`agent_architecture`
report format             :data:`ReportFormat`                 :func:`report_format`
mutation operator         :class:`MutationOperator`            :func:`mutation_operator`
========================  ===================================  ===========================

Every registry (``PROVIDERS``, ``JUDGE_MODES``, ...) is a :class:`Registry` typed with its
base: ``lookup(name)`` gives an entry or raises :class:`UnknownName`; registering a name
twice raises :class:`NameTaken` unless ``replace=True``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real names, for type checkers
    from arena.agents._context import AGENTS, AgentContext, AgentFactory
    from arena.errors import ArenaError, InputError, ModelError, NameTaken, NotFound, UnknownName
    from arena.factories._declare import agent_factory
    from arena.golden._models import GoldenCase
    from arena.models._config import ModelConfig
    from arena.models._fake import FakeChatModel, register_fake
    from arena.models.providers._base import Provider, UncallableProvider
    from arena.models.providers._registry import PROVIDERS
    from arena.mutation import (
        MUTATION_OPERATORS,
        Mutant,
        Mutation,
        MutationOperator,
        MutationTargets,
        make_mutant,
    )
    from arena.ratings._battle_arrays import Battles
    from arena.ratings._fit import RatingFit
    from arena.ratings._methods import RATING_METHODS
    from arena.ratings._options import RatingOptions
    from arena.records.results import RunResult
    from arena.registry import (
        RatingMethod,
        Registry,
        agent_architecture,
        golden_check,
        judge_mode,
        model_provider,
        mutation_operator,
        rating_method,
        report_format,
    )
    from arena.reports._score_formats import REPORT_FORMATS, ReportFormat, ScoreReport
    from arena.scoring._types import Check
    from arena.scoring.checks import GOLDEN_CHECKS, OUTPUT, CheckInput, GoldenCheck
    from arena.scoring.checks._reasons import FailReason, FailureKind
    from arena.vocabulary import Label
    from judges._types import JudgeSpec, PairRequest, Verdict
    from judges.modes import MODES as JUDGE_MODES
    from judges.modes._base import Asker, JudgeMode, Reading, UnreadableReply

_EXPORTS: dict[str, tuple[str, str]] = {
    # registries and registration
    "Registry": ("arena.registry", "Registry"),
    "model_provider": ("arena.registry", "model_provider"),
    "judge_mode": ("arena.registry", "judge_mode"),
    "rating_method": ("arena.registry", "rating_method"),
    "golden_check": ("arena.registry", "golden_check"),
    "agent_architecture": ("arena.registry", "agent_architecture"),
    "report_format": ("arena.registry", "report_format"),
    "mutation_operator": ("arena.registry", "mutation_operator"),
    "agent_factory": ("arena.factories._declare", "agent_factory"),
    "PROVIDERS": ("arena.models.providers._registry", "PROVIDERS"),
    "JUDGE_MODES": ("judges.modes", "MODES"),
    "RATING_METHODS": ("arena.ratings._methods", "RATING_METHODS"),
    "GOLDEN_CHECKS": ("arena.scoring.checks", "GOLDEN_CHECKS"),
    "AGENTS": ("arena.agents._context", "AGENTS"),
    "REPORT_FORMATS": ("arena.reports._score_formats", "REPORT_FORMATS"),
    "MUTATION_OPERATORS": ("arena.mutation", "MUTATION_OPERATORS"),
    # errors
    "ArenaError": ("arena.errors", "ArenaError"),
    "InputError": ("arena.errors", "InputError"),
    "ModelError": ("arena.errors", "ModelError"),
    "NameTaken": ("arena.errors", "NameTaken"),
    "NotFound": ("arena.errors", "NotFound"),
    "UnknownName": ("arena.errors", "UnknownName"),
    # model providers
    "Provider": ("arena.models.providers._base", "Provider"),
    "UncallableProvider": ("arena.models.providers._base", "UncallableProvider"),
    "ModelConfig": ("arena.models._config", "ModelConfig"),
    "FakeChatModel": ("arena.models._fake", "FakeChatModel"),
    "register_fake": ("arena.models._fake", "register_fake"),
    # judge modes
    "JudgeMode": ("judges.modes._base", "JudgeMode"),
    "Asker": ("judges.modes._base", "Asker"),
    "Reading": ("judges.modes._base", "Reading"),
    "UnreadableReply": ("judges.modes._base", "UnreadableReply"),
    "PairRequest": ("judges._types", "PairRequest"),
    "Verdict": ("judges._types", "Verdict"),
    "JudgeSpec": ("judges._types", "JudgeSpec"),
    "Label": ("arena.vocabulary", "Label"),
    # rating methods
    "RatingMethod": ("arena.registry", "RatingMethod"),
    "Battles": ("arena.ratings._battle_arrays", "Battles"),
    "RatingFit": ("arena.ratings._fit", "RatingFit"),
    "RatingOptions": ("arena.ratings._options", "RatingOptions"),
    # golden checks
    "GoldenCheck": ("arena.scoring.checks", "GoldenCheck"),
    "CheckInput": ("arena.scoring.checks", "CheckInput"),
    "Check": ("arena.scoring._types", "Check"),
    "FailReason": ("arena.scoring.checks._reasons", "FailReason"),
    "FailureKind": ("arena.scoring.checks._reasons", "FailureKind"),
    "OUTPUT": ("arena.scoring.checks", "OUTPUT"),
    "GoldenCase": ("arena.golden._models", "GoldenCase"),
    "RunResult": ("arena.records.results", "RunResult"),
    # agents and report formats
    "AgentContext": ("arena.agents._context", "AgentContext"),
    "AgentFactory": ("arena.agents._context", "AgentFactory"),
    "ReportFormat": ("arena.reports._score_formats", "ReportFormat"),
    "ScoreReport": ("arena.reports._score_formats", "ScoreReport"),
    # mutation operators
    "MutationOperator": ("arena.mutation", "MutationOperator"),
    "Mutant": ("arena.mutation", "Mutant"),
    "Mutation": ("arena.mutation", "Mutation"),
    "MutationTargets": ("arena.mutation", "MutationTargets"),
    "make_mutant": ("arena.mutation", "make_mutant"),
}

__all__ = [
    "AGENTS",
    "GOLDEN_CHECKS",
    "JUDGE_MODES",
    "MUTATION_OPERATORS",
    "OUTPUT",
    "PROVIDERS",
    "RATING_METHODS",
    "REPORT_FORMATS",
    "AgentContext",
    "AgentFactory",
    "ArenaError",
    "Asker",
    "Battles",
    "Check",
    "CheckInput",
    "FailReason",
    "FailureKind",
    "FakeChatModel",
    "GoldenCase",
    "GoldenCheck",
    "InputError",
    "JudgeMode",
    "JudgeSpec",
    "Label",
    "ModelConfig",
    "ModelError",
    "Mutant",
    "Mutation",
    "MutationOperator",
    "MutationTargets",
    "NameTaken",
    "NotFound",
    "PairRequest",
    "Provider",
    "RatingFit",
    "RatingMethod",
    "RatingOptions",
    "Reading",
    "Registry",
    "ReportFormat",
    "RunResult",
    "ScoreReport",
    "UncallableProvider",
    "UnknownName",
    "UnreadableReply",
    "Verdict",
    "agent_architecture",
    "agent_factory",
    "golden_check",
    "judge_mode",
    "make_mutant",
    "model_provider",
    "mutation_operator",
    "rating_method",
    "register_fake",
    "report_format",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'arena.extend' has no attribute {name!r}")
    module, attr = _EXPORTS[name]
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])

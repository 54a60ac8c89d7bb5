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
    from arena.agents._architectures import AGENTS, agent_architecture
    from arena.agents._context import AgentContext, AgentFactory
    from arena.errors import ArenaError, InputError, ModelError, NameTaken, NotFound, UnknownName
    from arena.factories._declare import agent_factory
    from arena.golden._models import GoldenCase
    from arena.models._config import ModelConfig
    from arena.models._fake import FakeChatModel, register_fake
    from arena.models.providers._base import Provider, UncallableProvider
    from arena.models.providers._registry import PROVIDERS, model_provider
    from arena.mutation import Mutant, Mutation, MutationOperator, MutationTargets, make_mutant
    from arena.mutation._registry import MUTATION_OPERATORS, mutation_operator
    from arena.ratings._battle_arrays import Battles
    from arena.ratings._fit import RatingFit
    from arena.ratings._options import RatingOptions
    from arena.ratings._registry import RATING_METHODS, RatingMethod, rating_method
    from arena.records.results import RunResult
    from arena.registry import Registry
    from arena.reports._score_formats import (
        REPORT_FORMATS,
        ReportFormat,
        ScoreReport,
        report_format,
    )
    from arena.scoring._types import Check
    from arena.scoring.checks import OUTPUT, CheckInput, GoldenCheck
    from arena.scoring.checks._base import GOLDEN_CHECKS, LintNote, Weakening, golden_check
    from arena.scoring.checks._reasons import FailReason, FailureKind
    from arena.vocabulary import Label
    from judges._types import JudgeSpec, PairRequest, Verdict
    from judges.modes._base import Asker, JudgeMode, Reading, UnreadableReply
    from judges.modes._registry import JUDGE_MODES, judge_mode

    REGISTRIES: dict[str, Registry[Any]]

_EXPORTS: dict[str, tuple[str, str]] = {
    # registries and registration
    "Registry": ("arena.registry", "Registry"),
    "model_provider": ("arena.models.providers._registry", "model_provider"),
    "judge_mode": ("judges.modes._registry", "judge_mode"),
    "rating_method": ("arena.ratings._registry", "rating_method"),
    "golden_check": ("arena.scoring.checks._base", "golden_check"),
    "agent_architecture": ("arena.agents._architectures", "agent_architecture"),
    "report_format": ("arena.reports._score_formats", "report_format"),
    "mutation_operator": ("arena.mutation._registry", "mutation_operator"),
    "agent_factory": ("arena.factories._declare", "agent_factory"),
    "PROVIDERS": ("arena.models.providers._registry", "PROVIDERS"),
    "JUDGE_MODES": ("judges.modes._registry", "JUDGE_MODES"),
    "RATING_METHODS": ("arena.ratings._registry", "RATING_METHODS"),
    "GOLDEN_CHECKS": ("arena.scoring.checks._base", "GOLDEN_CHECKS"),
    "AGENTS": ("arena.agents._architectures", "AGENTS"),
    "REPORT_FORMATS": ("arena.reports._score_formats", "REPORT_FORMATS"),
    "MUTATION_OPERATORS": ("arena.mutation._registry", "MUTATION_OPERATORS"),
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
    "RatingMethod": ("arena.ratings._registry", "RatingMethod"),
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
    "LintNote": ("arena.scoring.checks._base", "LintNote"),
    "Weakening": ("arena.scoring.checks._base", "Weakening"),
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
    "REGISTRIES",
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
    "LintNote",
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
    "Weakening",
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


def registries() -> dict[str, Registry[Any]]:
    """Every extension kind's registry, by its entry-point group suffix (``agent_arena.<key>``).

    Each lives with its base class; this imports those light modules (never the built-ins).

    Returns:
        ``providers``, ``judge_modes``, ``rating_methods``, ``golden_checks``, ``agents``,
        ``report_formats`` and ``mutation_operators``, in that order.
    """
    from arena.agents._architectures import AGENTS
    from arena.models.providers._registry import PROVIDERS
    from arena.mutation._registry import MUTATION_OPERATORS
    from arena.ratings._registry import RATING_METHODS
    from arena.reports._score_formats import REPORT_FORMATS
    from arena.scoring.checks._base import GOLDEN_CHECKS
    from judges.modes._registry import JUDGE_MODES

    return {
        "providers": PROVIDERS,
        "judge_modes": JUDGE_MODES,
        "rating_methods": RATING_METHODS,
        "golden_checks": GOLDEN_CHECKS,
        "agents": AGENTS,
        "report_formats": REPORT_FORMATS,
        "mutation_operators": MUTATION_OPERATORS,
    }


def __getattr__(name: str) -> Any:
    if name == "REGISTRIES":  # every kind's registry, collected on first use
        globals()[name] = registries()
        return globals()[name]
    if name not in _EXPORTS:
        raise AttributeError(f"module 'arena.extend' has no attribute {name!r}")
    module, attr = _EXPORTS[name]
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])

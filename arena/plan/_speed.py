"""How fast a model is, for the plan's wall time: measured, never assumed when it can be.

Each model provider declares its speed probe
(:meth:`~arena.models.providers._base.Provider.speed`): a ``local:`` model is one llama.cpp
server on this machine's CPU whose prefill and decode speeds are measured with one short
request (:mod:`arena.models.providers._local_speed`); the server runs a few requests at once
(:meth:`~arena.models.providers._base.Provider.server_slots`, batched on the one CPU, so
``shared``) and queues the rest: more workers than slots do not go faster. Other models (an
API) take :data:`CALL_LATENCY_S` per call, divided among the workers; models that reach no
network (scripted ones) take no time.
Previous runs of a variant or model, when stored, come first (:mod:`arena.plan._estimate`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.models.providers import PROVIDERS
from arena.models.providers._speed import CALL_LATENCY_S, Speed

if TYPE_CHECKING:
    from arena.models import ModelConfig

__all__ = ["CALL_LATENCY_S", "Speed", "default_speed", "model_speed", "parallel_lanes"]


def parallel_lanes(config: ModelConfig, workers: int) -> int:
    """How many of ``workers`` run at once on the model: a shared server serves its slots
    and queues the rest; any other model takes every worker."""
    provider = PROVIDERS.lookup(config.provider)
    if not provider.shared_server:
        return max(1, workers)
    return max(1, min(workers, provider.server_slots()))


def default_speed(config: ModelConfig) -> Speed:
    """The speed assumed when nothing is measured (the provider's, without probing)."""
    return PROVIDERS.lookup(config.provider).speed(config, measure=False)


def model_speed(config: ModelConfig, measure: bool = True) -> Speed:
    """The model's speed by its provider's probe (measured only when ``measure``)."""
    return PROVIDERS.lookup(config.provider).speed(config, measure)

"""Checks before a run writes anything or calls any model: options, agents, credentials."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from arena.errors import InputError

if TYPE_CHECKING:
    from arena.golden import GoldenCase
    from arena.models import ModelConfig
    from arena.runner._options import RunOptions
    from arena.variants.variant import Variant


def check_timeout(seconds: float, field: str = "case_timeout_s") -> None:
    """A per-case time limit must be a positive, finite number of seconds."""
    if not (math.isfinite(seconds) and seconds > 0):
        raise InputError(f"must be a positive number of seconds, got {seconds:g}", field=field)


def check_run(variants: list[Variant], options: RunOptions) -> None:
    """Fail fast (InputError) on bad options, an agent factory that cannot be imported, or a
    model that cannot be built (an unset ``api_key_env`` variable), for every variant."""
    from arena.agents import check_agent
    from arena.models import check_model

    check_timeout(options.case_timeout_s)
    if options.repeats < 1:
        raise InputError("repeats must be at least 1", field="repeats")
    for variant in variants:
        check_agent(variant)  # names the variant file in errors
        for prefix, config in [
            ("model", variant.model),
            *((f"roles.{role}", c) for role, c in variant.roles.items()),
        ]:
            try:
                check_model(config)
            except InputError as exc:
                field = (exc.field or "").replace("model", prefix, 1) or None
                raise InputError(
                    f"variant {variant.name}: {exc.message}", file=variant.source_file, field=field
                ) from None


def check_user_models(cases: list[GoldenCase], options: RunOptions) -> ModelConfig | None:
    """The run's user model (``options.user_model`` parsed; None: unset), after checking
    that every simulated case can be played: its model spec is valid and can be built, and
    this installation has simulated users. InputError names the case and field."""
    from arena.conversations._make import simulated_users_available
    from arena.models import check_model
    from arena.runner._user_model import parse_user_model, user_model_config

    run_model = parse_user_model(options.user_model)
    simulated = [c for c in cases if c.conversation is not None and c.conversation.simulated]
    if simulated and not simulated_users_available():
        raise InputError(
            f"case {simulated[0].id}: simulated users are not available in this "
            "installation; use scripted turns",
            field="conversation.user",
        )
    for case in simulated:
        config = user_model_config(case, run_model)
        assert config is not None
        try:
            check_model(config)
        except InputError as exc:
            user = case.conversation.user if case.conversation is not None else None
            own = user is not None and user.model is not None
            raise InputError(
                f"case {case.id}: the user model {config.spec}: {exc.message}",
                field="conversation.user.model" if own else "user_model",
            ) from None
    return run_model

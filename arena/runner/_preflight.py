"""Checks before a run writes anything or calls any model: options, agents, credentials."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from arena.errors import InputError

if TYPE_CHECKING:
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

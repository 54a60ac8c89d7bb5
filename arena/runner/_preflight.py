"""Checks before a run writes anything or calls any model: options, agents, credentials."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from arena.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Collection

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


def offered_tools(variant: Variant) -> set[str] | None:
    """Every tool the variant's agent can be given: the built-in agents' tools, or those its
    factory declares (whatever the variant's ``tools:`` selects of them, so a variant that
    drops a tool still fails the cases needing it: a regression, not bad input); None when
    the factory declares none (only its built graph says)."""
    from arena.defaults import TOOL_NAMES
    from arena.factories._factories import vet_variant
    from arena.variants.variant import ARCHITECTURES

    if variant.agent in ARCHITECTURES:
        return set(TOOL_NAMES)
    declared = vet_variant(variant).tool_names
    return None if declared is None else set(declared)


def _selected(variant: Variant, offered: set[str] | None) -> list[str]:
    """The tools the variant's ``tools:`` selects of those its agent is offered."""
    chosen = variant.tools if variant.tools is not None else sorted(offered or ())
    return list(chosen) or ["no tools"]


def _required_tools(case: GoldenCase) -> list[tuple[str, list[str]]]:
    """Each field of ``case`` naming tools a passing run must call, with those names."""
    fields = [
        ("expected_tools", list(case.expected_tools)),
        ("expected_order", list(case.expected_order)),
        ("expected_args", list(case.expected_args)),
        ("expected_calls", [call.tool for call in case.expected_calls]),
    ]
    if case.conversation is not None:
        named = case.conversation.named_tools()
        fields += [(field, names) for field, names in named if field.endswith(".tools")]
    return fields


def unoffered(case: GoldenCase, offered: set[str]) -> tuple[str, list[str]] | None:
    """The first field of ``case`` requiring tools outside ``offered``, and those tools
    (the expected tools pass when an acceptable tool set is all offered)."""
    stand_in = any(set(tools) <= offered for tools in case.acceptable_tools)
    for field, names in _required_tools(case):
        missing = [name for name in dict.fromkeys(names) if name not in offered]
        if missing and not (field == "expected_tools" and stand_in):
            return field, missing
    return None


def check_offered_tools(
    cases: list[GoldenCase],
    variants: list[Variant],
    dataset_file: str,
    known: Collection[str] = (),
) -> None:
    """InputError (naming the dataset file, the case, the field and the tool) when a case
    requires a call to a tool that no variant's agent can be given, so the case can never
    pass: in ``available_tools`` but in no agent's tools (:func:`offered_tools`). Nothing is
    checked when a variant's tools are unknown (a factory that declares none). ``known``: tools
    a baseline offered, which a case may still need (the candidate dropping one is a
    regression the gate reports, not bad input)."""
    offered = {variant.name: offered_tools(variant) for variant in variants}
    if not variants or any(names is None for names in offered.values()):
        return
    anyone = set(known).union(*(names for names in offered.values() if names is not None))
    for case in cases:
        found = unoffered(case, anyone)
        if found is None:
            continue
        has = "; ".join(f"{v.name}: {', '.join(_selected(v, offered[v.name]))}" for v in variants)
        raise InputError(
            f"tool(s) {', '.join(found[1])} offered by no variant, so the case can never "
            f"pass: every variant lacks it ({has}), and no baseline offered it; give the agent "
            "the tool, or correct the tool's name in the case",
            file=dataset_file or None,
            case=case.id,
            field=found[0],
        )


def check_route_names(
    cases: list[GoldenCase],
    variants: list[Variant],
    dataset_file: str,
    known_nodes: Collection[str] = (),
) -> None:
    """InputError (naming the dataset file, every case and field, the unknown names and the
    graph's nodes) when a case's route fields name a node that no variant's compiled graph
    has: a misspelt name would be a route that always fails or a forbidden node that never
    fires. The graphs are built without a model call; only when a case names nodes, and
    nothing is checked when no variant's agent is a graph (no path is recorded).
    ``known_nodes``: nodes a baseline's graph had, which a case may still name (the candidate
    renaming or dropping one is a regression the gate reports, not bad input)."""
    from arena.golden._route_nodes import check_route_nodes
    from arena.runner._graph_nodes import variants_node_names

    if not any(case.node_names() for case in cases):
        return
    known, graphs = variants_node_names(variants)
    if graphs:
        check_route_nodes(
            cases, known | set(known_nodes), file=dataset_file or None, graph=", ".join(graphs)
        )

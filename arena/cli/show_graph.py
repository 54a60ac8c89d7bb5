"""``arena show``'s graph flags: ``--state [STEP]`` (a failed LangGraph run's state after
each superstep) and ``--agentevals`` (the path in agentevals' graph-trajectory shape)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from arena.errors import InputError
from arena.reports._format import json_text

if TYPE_CHECKING:
    from arena.records.results import RunResult
    from arena.storage import Store

ALL_STEPS = "all"


def add_graph_flags(p: argparse.ArgumentParser) -> None:
    """Add ``--state [STEP]`` and ``--agentevals`` to ``arena show``."""
    p.add_argument(
        "--state",
        nargs="?",
        const=ALL_STEPS,
        default=None,
        type=_step,
        metavar="STEP",
        help="print the state after each superstep (kept for failed cases of a LangGraph "
        "agent): what each step changed, or STEP's every value",
    )
    p.add_argument(
        "--agentevals",
        action="store_true",
        help="print the graph path as agentevals' graph trajectory (JSON: inputs, results, steps)",
    )


def _step(text: str) -> int | str:
    if text == ALL_STEPS:
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"STEP is a superstep number, got {text!r}") from None


def wants_graph_view(args: argparse.Namespace) -> bool:
    """True when ``arena show`` was asked for a graph view instead of the trajectory."""
    return args.state is not None or bool(args.agentevals)


def print_graph_view(store: Store, result: RunResult, args: argparse.Namespace) -> int:
    """Print the state view or the agentevals trajectory of ``result``; InputError when the
    result has none."""
    if args.agentevals:
        print(json_text(_agentevals(store, result)))
        return 0
    from arena.reports._graph_state import no_states, pick_step, state_json, state_lines

    if result.states is None:
        raise no_states(result.id)
    step = None if args.state == ALL_STEPS else int(args.state)
    steps = pick_step(result.states, step, result.id)
    if args.json:
        print(json_text({"result_id": result.id, **state_json(result.states, steps)}))
    else:
        print(f"result {result.id}  case {result.case_id}  state after each superstep")
        print("\n".join(state_lines(result.states, steps, full=step is not None)))
    return 0


def _agentevals(store: Store, result: RunResult) -> dict[str, Any]:
    from arena.errors import NotFound
    from arena.records.graph_trajectory import agentevals_trajectory

    if result.nodes is None:
        raise InputError(f"result {result.id} has no graph path: its agent is not a graph")
    case_input = ""
    if result.run_id is not None and result.dialogue is None:
        try:
            case_input = store.run_dataset(result.run_id).case(result.case_id).input
        except NotFound:
            case_input = ""  # the run's dataset or case is gone: the path still stands
    return agentevals_trajectory(result, case_input)

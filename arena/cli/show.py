"""``arena show RESULT_ID``: one trajectory, readably; a conversation turn by turn."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import TYPE_CHECKING, Any

from arena.cli._commands import command
from arena.cli.common import add_db
from arena.cli.show_graph import add_graph_flags, print_graph_view, wants_graph_view
from arena.reports._format import terminal_safe

if TYPE_CHECKING:
    from arena.records.results import RunResult, TrajectoryStep


@command("show", order=30)
def register(sub: Any) -> None:
    """Add the show sub-command."""
    p = sub.add_parser("show", help="print one result's trajectory")
    p.add_argument("result_id", type=int, help="stored result id (`arena runs`, `arena score`)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_graph_flags(p)
    add_db(p)
    p.set_defaults(handler=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    """Print a stored result."""
    from arena.runner._versions import version_story
    from arena.storage import Store

    store = Store(args.db, read_only=True)
    result = store.result(args.result_id)
    if wants_graph_view(args):
        return print_graph_view(store, result, args)
    if args.json:
        print(result.model_dump_json(indent=2))
        return 0
    print(
        f"result {result.id}  run {result.run_id}  variant {result.variant} "
        f"({result.variant_hash})  case {result.case_id}  repeat {result.repeat}"
    )
    print(
        f"latency {result.latency_s:.2f} s  tokens {result.input_tokens}+"
        f"{result.output_tokens}  cost "
        f"{'unknown' if result.cost_usd is None else f'${result.cost_usd:.5f}'}  model calls "
        f"{result.model_calls}"
    )
    print(version_story(store, result.variant, result.variant_hash))
    if result.error:
        print(f"ERROR: {result.error}")
    if result.dialogue is not None:
        print("\n".join(dialogue_lines(result)))
    else:
        for step in result.steps:
            print("\n".join(step_lines(step)))
    if result.nodes is not None:
        print("\n".join(node_lines(result)))
    if result.end_state is not None:
        print("\n".join(state_lines(result)))
    for path, text in result.files.items():
        print(f"\nfile {path}:\n{_indented(text[:600])}")
    if result.dialogue is None:
        print(f"\nfinal answer:\n{_indented(result.output or '(empty)')}")
    print_judge_details(store, result.run_id, args.result_id)
    return 0


def _indented(text: str) -> str:
    """``text`` indented by four spaces, its control characters escaped first, so a bare
    carriage return stays in its line (``\\u000d``) as everywhere else, never starts one."""
    return textwrap.indent(terminal_safe(text), "    ")


def step_lines(step: TrajectoryStep) -> list[str]:
    """One tool call: ``[index] agent -> tool(args)``, then its observation or error."""
    body = step.error or step.observation
    label = "error" if step.error else "observation"
    return [
        f"\n[{step.index}] {step.agent} -> {step.tool}({json.dumps(step.args)})",
        _indented(f"{label}: {body[:600]}"),
    ]


def node_lines(result: RunResult) -> list[str]:
    """A LangGraph run's path: one line per node in the order it started (a sub-graph's
    nodes indented under their parent, written ``parent:node``), its superstep, turn and
    duration; then the run's supersteps, a recursion-limit stop and the interrupts."""
    path = result.nodes
    assert path is not None
    turns = len(path.turn_supersteps)
    head = f"\ngraph path: {len(path.steps)} node(s), {path.supersteps} superstep(s)"
    head += f" over {turns} turns" if turns > 1 else ""
    lines = [head + (", RECURSION LIMIT HIT" if path.recursion_limit_hit else "")]
    for step in path.steps:
        turn = f"turn {step.turn} " if turns > 1 else ""
        error = f"  ({step.error})" if step.error else ""
        lines.append(
            f"{'    ' * (step.depth + 1)}{turn}step {step.superstep}  "
            f"{terminal_safe(step.name)}  {step.duration_s:.3f} s{error}"
        )
    for interrupt in path.interrupts:
        lines.append(f"    interrupt at {interrupt.node}: {terminal_safe(interrupt.value)}")
    return lines


def state_lines(result: RunResult) -> list[str]:
    """What the run changed in the state its agent exposes (``ctx.expose_state``): one line
    per changed field (``orders/#W2 status: pending -> cancelled``), record added or removed."""
    from arena.records.end_state import change_lines

    diff = result.end_state
    assert diff is not None
    count = len(diff.changes) + diff.dropped
    head = f"{count} record(s) changed" if count else "nothing changed"
    head = "not known" if diff.error is not None else head
    return [f"\nend state: {head}", *(f"    {terminal_safe(line)}" for line in change_lines(diff))]


def dialogue_lines(result: RunResult) -> list[str]:
    """A conversation result turn by turn: the user's message, the tool calls of that turn
    with their observations, the agent's reply; then how the conversation ended."""
    from arena.records.transcript import turn_steps

    dialogue = result.dialogue
    assert dialogue is not None
    user = f", user played by {dialogue.user_model}" if dialogue.user_model else ""
    calls = (
        f" ({dialogue.simulator_calls} simulator calls, {dialogue.simulator_fresh_calls} sent)"
        if dialogue.user_model
        else ""
    )
    lines = [
        f"conversation: {len(dialogue.turns)} turn(s), ended by {dialogue.ended_by}{user}{calls}"
    ]
    if dialogue.simulator_error:
        lines.append(f"SIMULATOR ERROR (not the agent's): {dialogue.simulator_error}")
    shown: set[int] = set()
    for turn in dialogue.turns:
        lines.append(
            f"\n--- turn {turn.index} ({turn.model_calls} model calls, {turn.latency_s:.2f} s) ---"
        )
        lines.append(f"user:\n{_indented(turn.user or '(empty)')}")
        for step in turn_steps(result, turn):
            lines.extend(step_lines(step))
        shown.update(turn.steps)
        lines.append(f"\nreply:\n{_indented(turn.reply or '(no reply)')}")
    rest = [step for i, step in enumerate(result.steps) if i not in shown]
    if rest:
        lines.append("\ntool calls in no turn:")
        for step in rest:
            lines.extend(step_lines(step))
    return lines


def print_judge_details(store: Any, run_id: int | None, result_id: int) -> None:
    """What each judge's mode found about this answer (e.g. a checklist judge's items with
    their P(YES)), as the mode renders it."""
    from judges.modes.checklist._view import result_details

    if run_id is None:
        return
    for found in result_details(store.battles(run_id), result_id):
        lines = found.lines()
        if lines:
            print(f"\n{found.mode} of judge {found.judge}:")
            print(_indented("\n".join(lines)))

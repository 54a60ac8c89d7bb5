"""Pairs of stored results that carry a LangGraph path, built by hand, for the tests of the
judge that sees each answer's path through the graph (``JudgeSpec.with_graph_path``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from arena.golden import GoldenCase, load_dataset
from arena.models._fake_files import use_fake_scripts
from arena.records.graph_path import NodeInterrupt, NodePath, NodeStep
from arena.records.results import RunResult, TrajectoryStep
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import load_variant
from tests.judges.dialogues import CAREFUL, HASTY, dialogue_result, refund_case

DESK = Path(__file__).parents[1] / "examples" / "support_desk"
#: Every judge mode, the ones that show no trajectory included.
MODES = ("text", "logprobs", "grades", "checklist", "auto", "blend", "rules")

CASE = GoldenCase.model_validate(
    {
        "id": "S-1",
        "input": "Where is my order 4471?",
        "category": "happy_path",
        "expected_output_contains": ["4471"],
        "reference_answer": "Order 4471 has shipped.",
        "expected_tools": ["lookup_order"],
        "expected_route": ["router", "support", "audit"],
    }
)


def node_path(*names: str, hit: bool = False, error_at: str | None = None) -> NodePath:
    """A one-turn path: ``parent:node`` names run inside their parent, one superstep per
    top-level node; ``error_at`` raised; ``hit``: the recursion limit stopped it."""
    steps: list[NodeStep] = []
    top = inner = 0
    for index, name in enumerate(names):
        parent, _, node = name.rpartition(":")
        if parent:
            inner += 1
        else:
            top, inner = top + 1, 0
        steps.append(
            NodeStep(
                index=index,
                node=node,
                parent=parent or None,
                superstep=inner if parent else top,
                duration_s=0.01,
                error="ValueError" if name == error_at else None,
            )
        )
    return NodePath(steps=steps, turn_supersteps=[top], recursion_limit_hit=hit)


def graph_result(
    result_id: int,
    output: str,
    path: NodePath | None,
    *,
    tools: tuple[str, ...] = ("lookup_order",),
) -> RunResult:
    """A one-message result of case S-1 with its tool calls and its path (None: a plain
    Runnable, no path recorded)."""
    return RunResult(
        id=result_id,
        variant=f"v{result_id}",
        variant_hash="h",
        case_id="S-1",
        case_hash="c",
        output=output,
        steps=[
            TrajectoryStep(index=i, tool=t, args={"order_id": "4471"}) for i, t in enumerate(tools)
        ],
        model_calls=3,
        nodes=path,
    )


#: Goes the way the case expects: router, the support sub-graph with its tool node, audit.
ROUTED = graph_result(
    1,
    "Order 4471 has shipped and arrives tomorrow.",
    node_path("router", "support", "support:agent", "support:tools", "support:agent", "audit"),
)
#: Declines, and its decline node raises.
DECLINED = graph_result(
    2,
    "Sorry, I cannot help with that.",
    node_path("router", "decline", error_at="decline"),
    tools=(),
)
#: The same answer as DECLINED from a plain Runnable: no path.
PLAIN = graph_result(3, "Sorry, I cannot help with that.", None, tools=())


def dialogue_with_path(variant: str, careful: bool) -> RunResult:
    """A three-turn refund conversation with a path per turn (an interrupt in turn 3 of the
    careful one)."""
    result = dialogue_result(variant, CAREFUL if careful else HASTY)
    steps: list[NodeStep] = []
    for turn in (1, 2, 3):
        for node in ("router", "support" if careful else "refund"):
            steps.append(
                NodeStep(index=len(steps), node=node, superstep=len(steps) % 2 + 1, turn=turn)
            )
    interrupts = [NodeInterrupt(node="support", turn=3, value="confirm the refund of 4471?")]
    path = NodePath(
        steps=steps,
        turn_supersteps=[2, 2, 2],
        interrupts=interrupts if careful else [],
    )
    return result.model_copy(update={"nodes": path})


DIALOGUE_CASE = refund_case()
CAREFUL_RESULT = dialogue_with_path("careful", True)
HASTY_RESULT = dialogue_with_path("hasty", False)


def pairs() -> dict[str, tuple[GoldenCase, RunResult, RunResult]]:
    """Named pairs: both sides with a path, one side without, a conversation."""
    return {
        "paths": (CASE, ROUTED, DECLINED),
        "one-missing": (CASE, ROUTED, PLAIN),
        "conversation": (DIALOGUE_CASE, CAREFUL_RESULT, HASTY_RESULT),
    }


def sha(value: Any) -> str:
    """sha256 of ``value`` as sorted JSON."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def desk_run(store: Store) -> int:
    """The support desk (tests/examples/support_desk, scripted models) on S-2 and S-3: the
    desk and the strict desk (graphs, with paths) and the plain Runnable (no path; it finds
    no answer to S-3)."""
    use_fake_scripts(DESK / "fake_models.yaml")
    names = ("desk", "desk-strict", "desk-plain")
    variants = [load_variant(DESK / "variants" / f"{name}.yaml") for name in names]
    dataset = load_dataset(DESK / "golden" / "support.json")
    options = RunOptions(progress=False, case_ids=["S-2", "S-3"])
    return run_suite(store, dataset, variants, options).run_id

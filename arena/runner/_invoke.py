"""What every agent run shares, one message or a dialogue: its invocation config, the text
of an error it raised, and its cost."""

from __future__ import annotations

import traceback

from langchain_core.runnables import RunnableConfig

from arena.models import CallCounter, price_for
from arena.records.dialogue import Dialogue
from arena.records.end_state import StateDiff
from arena.records.graph_path import NodePath
from arena.records.results import RunResult
from arena.runner._tasks import Task
from arena.runner._trajectory import TrajectoryRecorder
from arena.secrets import redact
from arena.variants.variant import Variant

TRACEBACK_LIMIT = 6000


def run_config(task: Task, run_id: int, recorder: TrajectoryRecorder) -> RunnableConfig:
    """The agent's invocation config: the recorder, a recursion limit, tags and metadata."""
    variant, case = task.variant, task.case
    variant_hash = task.key[0]
    return {
        "callbacks": [recorder],
        "recursion_limit": 4 * variant.max_steps + 4 * variant.max_iterations + 10,
        "run_name": f"{variant.name}:{case.id}",
        "tags": [
            f"variant:{variant.name}",
            f"case:{case.id}",
            f"arena-run:{run_id}",
            f"version:{variant_hash}",
            f"repeat:{task.repeat}",
        ],
        "metadata": {
            "arena_run_id": run_id,
            "variant": variant.name,
            "variant_hash": variant_hash,
            "case_id": case.id,
            "repeat": task.repeat,
        },
    }


def error_text(exc: BaseException, *, shared: bool) -> str:
    """The stored error of an agent that raised: redacted, cut, and for your own agent's code
    (not ``shared``) where it failed, for ``arena show``."""
    error = redact(f"{type(exc).__name__}: {exc}")[:2000]  # redact, then cut
    if not shared:
        error += "\n\n" + redact(traceback_tail(exc))
    return error


def traceback_tail(exc: BaseException, limit: int = TRACEBACK_LIMIT) -> str:
    """The exception's traceback, its last ``limit`` characters (where it was raised)."""
    text = "".join(traceback.format_exception(exc)).rstrip()
    return text if len(text) <= limit else "...\n" + text[-limit:]


def run_cost(variant: Variant, recorder: TrajectoryRecorder, seconds: float = 0.0) -> float | None:
    """Dollars of the run's tokens, each (sub-)agent's at its own model's price, plus
    ``seconds`` of the main model's machine time at its ``price_per_hour``; None when a model
    that was used has no known price (unknown, never $0)."""
    from arena.models._pricing import price_unknown

    used = (
        [variant.model]
        if not variant.roles
        else [variant.model_for(a) for a in recorder.tokens_by_agent]
    )
    if any(price_unknown(config) for config in used):
        return None
    main = price_for(variant.model)
    if not variant.roles:
        return main.cost(recorder.input_tokens, recorder.output_tokens, seconds)
    return main.cost(0, 0, seconds) + sum(
        price_for(variant.model_for(agent)).cost(tokens_in, tokens_out)
        for agent, (tokens_in, tokens_out) in recorder.tokens_by_agent.items()
    )


def task_result(
    task: Task,
    run_id: int,
    recorder: TrajectoryRecorder,
    counter: CallCounter,
    *,
    output: str,
    error: str | None,
    latency_s: float,
    files: dict[str, str],
    dialogue: Dialogue | None = None,
    nodes: NodePath | None = None,
    end_state: StateDiff | None = None,
) -> RunResult:
    """The result of one task from what its recorder and call counter saw (the recorder's
    steps already finished). Its ``replies`` are left empty when the only one is the answer
    (nothing more to check, nothing more to store)."""
    variant_hash, digest, _ = task.key
    return RunResult(
        run_id=run_id,
        variant=task.variant.name,
        variant_hash=variant_hash,
        case_id=task.case.id,
        case_hash=digest,
        repeat=task.repeat,
        output=output,
        steps=recorder.steps,
        model_calls=recorder.model_calls,
        fresh_model_calls=counter.sent,
        latency_s=round(latency_s, 4),
        input_tokens=recorder.input_tokens,
        output_tokens=recorder.output_tokens,
        cost_usd=run_cost(task.variant, recorder, latency_s),
        error=error,
        files=files,
        dialogue=dialogue,
        nodes=nodes,
        end_state=end_state,
        replies=[] if recorder.replies in ([], [output]) else recorder.replies,
        side_effecting=recorder.side_effecting,
    )

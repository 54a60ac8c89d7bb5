"""Run one task: get its agent, invoke it under a timeout, record what happened."""

from __future__ import annotations

import asyncio
import time
import traceback
from pathlib import Path

from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig

from arena.agents import extract_output
from arena.models import CALLS, CachingChatModel, CallCounter, price_for
from arena.records.results import RunResult
from arena.runner._agents import AgentCache, role_models
from arena.runner._tasks import Task
from arena.runner._trajectory import TrajectoryRecorder
from arena.secrets import redact
from arena.variants.variant import Variant

__all__ = ["execute_task", "role_models", "run_cost"]

TRACEBACK_LIMIT = 6000


async def execute_task(
    task: Task,
    model: CachingChatModel,
    sandbox_dir: Path,
    run_id: int,
    timeout_s: float,
    agents: AgentCache | None = None,
) -> RunResult:
    """Run the task's agent on its case and return the result (errors are recorded, not raised).

    ``agents`` shares built agents between the tasks of a run (run_suite passes one); without
    it the agent is built for this task alone.
    """
    from arena.agents.research.sandbox import Sandbox
    from arena.agents.research.tools import use_sandbox

    variant, case = task.variant, task.case
    variant_hash, digest, _ = task.key
    agents = agents if agents is not None else AgentCache()
    # A fresh folder of its own, never shared or wiped (file system calls run on a worker
    # thread, so the event loop serves other tasks meanwhile).
    sandbox = await asyncio.to_thread(Sandbox.create, sandbox_dir)
    recorder = TrajectoryRecorder()
    counter = CallCounter()
    token = CALLS.set(counter)
    output, error, final_messages = "", None, None
    started = time.perf_counter()
    try:
        tools = agents.tools(variant, model, sandbox)
        agent = agents.agent(variant, model, tools, sandbox)
        recorder.tool_names = agents.tool_names(variant, agent, tools)
        config: RunnableConfig = {
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
        with use_sandbox(sandbox):  # write_file of shared tools writes here, for this task
            result = await asyncio.wait_for(
                agent.ainvoke({"messages": [HumanMessage(case.input)]}, config), timeout_s
            )
        output = extract_output(result)
        final_messages = result.get("messages") if isinstance(result, dict) else None
        if not output.strip():
            error = "empty answer: the agent finished without a final answer"
    except TimeoutError:
        error = f"timeout: no answer within {timeout_s:g} s"
    except Exception as exc:  # the suite goes on; the error is recorded with the result
        error = redact(f"{type(exc).__name__}: {exc}")[:2000]  # redact, then cut
        if not agents.shared(variant):  # your own agent's code: where it failed, for `show`
            error += "\n\n" + redact(traceback_tail(exc))
    finally:
        CALLS.reset(token)
    latency = time.perf_counter() - started + counter.replayed_s
    steps = recorder.finish(final_messages)
    files = await asyncio.to_thread(sandbox.release)  # snapshot, then delete (inside the root)
    return RunResult(
        run_id=run_id,
        variant=variant.name,
        variant_hash=variant_hash,
        case_id=case.id,
        case_hash=digest,
        repeat=task.repeat,
        output=output,
        steps=steps,
        model_calls=recorder.model_calls,
        fresh_model_calls=counter.sent,
        latency_s=round(latency, 4),
        input_tokens=recorder.input_tokens,
        output_tokens=recorder.output_tokens,
        cost_usd=run_cost(variant, recorder, latency),
        error=error,
        files=files,
    )


def traceback_tail(exc: BaseException, limit: int = TRACEBACK_LIMIT) -> str:
    """The exception's traceback, its last ``limit`` characters (where it was raised)."""
    text = "".join(traceback.format_exception(exc)).rstrip()
    return text if len(text) <= limit else "...\n" + text[-limit:]


def run_cost(variant: Variant, recorder: TrajectoryRecorder, seconds: float = 0.0) -> float:
    """Dollars of the run's tokens, each (sub-)agent's at its own model's price, plus
    ``seconds`` of the main model's machine time at its ``price_per_hour``."""
    main = price_for(variant.model)
    if not variant.roles:
        return main.cost(recorder.input_tokens, recorder.output_tokens, seconds)
    return main.cost(0, 0, seconds) + sum(
        price_for(variant.model_for(agent)).cost(tokens_in, tokens_out)
        for agent, (tokens_in, tokens_out) in recorder.tokens_by_agent.items()
    )

"""Run one task: build the agent, invoke it under a timeout, record what happened."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig

from arena.agents import AgentContext, build_agent, extract_output
from arena.golden import case_hash
from arena.models import CALLS, CachingChatModel, CallCounter, make_chat_model, price_for
from arena.records import RunResult
from arena.runner.plan import Task
from arena.runner.trajectory import TrajectoryRecorder
from arena.secrets import redact
from arena.variants import Variant


async def execute_task(task: Task, model: CachingChatModel, sandbox_dir: Path, run_id: int,
                       timeout_s: float) -> RunResult:
    """Run the task's agent on its case and return the result (errors are recorded, not raised).
    """
    from arena.agents.research.sandbox import Sandbox
    from arena.agents.research.tools import TOOL_NAMES, build_tools

    variant, case = task.variant, task.case
    sandbox = Sandbox.create(sandbox_dir)  # a fresh folder of its own: never shared or wiped
    sandbox_dir = sandbox.root
    enabled = variant.tools if variant.tools is not None else list(TOOL_NAMES)
    tools = build_tools(model=model, sandbox=sandbox, enabled=enabled)
    recorder = TrajectoryRecorder(tool_names={t.name for t in tools})
    counter = CallCounter()
    token = CALLS.set(counter)
    output, error, final_messages = "", None, None
    started = time.perf_counter()
    try:
        agent = build_agent(AgentContext(variant=variant, model=model, tools=tools,
                                         sandbox_dir=sandbox_dir,
                                         role_models=role_models(variant, model)))
        config: RunnableConfig = {
            "callbacks": [recorder], "recursion_limit": 4 * variant.max_steps
            + 4 * variant.max_iterations + 10,
            "run_name": f"{variant.name}:{case.id}",
            "tags": [f"variant:{variant.name}", f"case:{case.id}", f"arena-run:{run_id}",
                     f"version:{variant.version_hash}", f"repeat:{task.repeat}"],
            "metadata": {"arena_run_id": run_id, "variant": variant.name,
                         "variant_hash": variant.version_hash, "case_id": case.id,
                         "repeat": task.repeat},
        }
        result = await asyncio.wait_for(
            agent.ainvoke({"messages": [HumanMessage(case.input)]}, config), timeout_s)
        output = extract_output(result)
        final_messages = result.get("messages") if isinstance(result, dict) else None
        if not output.strip():
            error = "empty answer: the agent finished without a final answer"
    except TimeoutError:
        error = f"timeout: no answer within {timeout_s:g} s"
    except Exception as exc:  # the suite goes on; the error is recorded with the result
        error = redact(f"{type(exc).__name__}: {exc}")[:2000]  # redact, then cut
    finally:
        CALLS.reset(token)
    latency = time.perf_counter() - started + counter.replayed_s
    return RunResult(
        run_id=run_id, variant=variant.name, variant_hash=variant.version_hash,
        case_id=case.id, case_hash=case_hash(case), repeat=task.repeat, output=output,
        steps=recorder.finish(final_messages), model_calls=recorder.model_calls,
        fresh_model_calls=counter.sent, latency_s=round(latency, 4),
        input_tokens=recorder.input_tokens, output_tokens=recorder.output_tokens,
        cost_usd=run_cost(variant, recorder, latency), error=error,
        files=sandbox.release(),  # snapshot, then delete the folder (inside the root only)
    )


def role_models(variant: Variant, model: CachingChatModel) -> dict[str, BaseChatModel]:
    """Cached models of the variant's ``roles``, sharing the run's cache and repeat."""
    return {role: CachingChatModel(factory=lambda c=config: make_chat_model(c),
                                   identity=config.cache_identity(),
                                   namespace=model.namespace, store=model.store)
            for role, config in variant.roles.items()}


def run_cost(variant: Variant, recorder: TrajectoryRecorder, seconds: float = 0.0) -> float:
    """Dollars of the run's tokens, each (sub-)agent's at its own model's price, plus
    ``seconds`` of the main model's machine time at its ``price_per_hour``."""
    main = price_for(variant.model)
    if not variant.roles:
        return main.cost(recorder.input_tokens, recorder.output_tokens, seconds)
    return main.cost(0, 0, seconds) + sum(
        price_for(variant.model_for(agent)).cost(tokens_in, tokens_out)
        for agent, (tokens_in, tokens_out) in recorder.tokens_by_agent.items())

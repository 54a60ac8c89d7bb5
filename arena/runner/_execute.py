"""Run one task: get its agent, invoke it under a timeout, record what happened."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from langchain_core.messages import HumanMessage

from arena.agents import extract_output
from arena.models import CALLS, CachingChatModel, CallCounter
from arena.records.results import RunResult
from arena.runner._agents import AgentCache, role_models
from arena.runner._end_state import StateWatch
from arena.runner._graph_path import NodePathRecorder, record_path
from arena.runner._graph_state import StateCapture, keep_state, prepare_state
from arena.runner._invoke import error_text, run_config, run_cost, task_result, traceback_tail
from arena.runner._tasks import Task
from arena.runner._trajectory import TrajectoryRecorder

__all__ = ["execute_task", "role_models", "run_cost", "traceback_tail"]


async def execute_task(
    task: Task,
    model: CachingChatModel,
    sandbox_dir: Path,
    run_id: int,
    timeout_s: float,
    agents: AgentCache | None = None,
    loaded: dict[str, str] | None = None,
) -> RunResult:
    """Run the task's agent on its case and return the result (errors are recorded, not raised).

    ``agents`` shares built agents between the tasks of a run (run_suite passes one); without
    it the agent is built for this task alone. ``loaded``, when given, receives the project
    files the agent loaded while it was built and ran beyond its static code (a dynamic
    import: :mod:`arena.factories._loaded`), to be stored with ``Store.record_loaded``.
    """
    variant = task.variant
    if loaded is None or not variant.version.code or AgentCache.shared(variant):
        return await _execute_task(task, model, sandbox_dir, run_id, timeout_s, agents)
    from arena.factories._imports import project_roots
    from arena.factories._loaded import recording

    roots = project_roots(variant.source_file)
    with recording(roots, frozenset(variant.version.code)) as seen:  # this agent's own loads
        result = await _execute_task(task, model, sandbox_dir, run_id, timeout_s, agents)
    loaded.update(seen.files)
    return result


async def _execute_task(
    task: Task,
    model: CachingChatModel,
    sandbox_dir: Path,
    run_id: int,
    timeout_s: float,
    agents: AgentCache | None = None,
) -> RunResult:
    from arena.sandbox import Sandbox, use_sandbox

    agents = agents if agents is not None else AgentCache()
    if task.case.conversation is not None:  # a dialogue: arena.runner._conversation
        from arena.runner._conversation import execute_dialogue

        return await execute_dialogue(task, model, sandbox_dir, run_id, timeout_s, agents)
    variant, case = task.variant, task.case
    # A fresh folder of its own, never shared or wiped (file system calls run on a worker
    # thread, so the event loop serves other tasks meanwhile).
    sandbox = await asyncio.to_thread(Sandbox.create, sandbox_dir)
    recorder = TrajectoryRecorder()
    counter = CallCounter()
    token = CALLS.set(counter)
    output, error, final_messages = "", None, None
    paths: NodePathRecorder | None = None
    capture: StateCapture | None = None
    state: StateWatch | None = None
    started = time.perf_counter()
    try:
        tools = agents.tools(variant, model, sandbox, task.wrap_tools)
        agent, snapshot = agents.build(variant, model, tools, sandbox)
        state = StateWatch(snapshot, case)
        recorder.tool_names = agents.tool_names(variant, agent, tools)
        recorder.side_effecting = agents.side_effecting(variant, agent, tools)
        config = run_config(task, run_id, recorder)
        paths = record_path(agent, config)
        capture = prepare_state(agent, config)
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
        error = error_text(exc, shared=agents.shared(variant))
    finally:
        CALLS.reset(token)
    latency = time.perf_counter() - started + counter.replayed_s
    recorder.finish(final_messages)
    files = await asyncio.to_thread(sandbox.release)  # snapshot, then delete (inside the root)
    finished = task_result(
        task,
        run_id,
        recorder,
        counter,
        output=output,
        error=error,
        latency_s=latency,
        files=files,
        nodes=None if paths is None else paths.path(),
        end_state=None if state is None else state.finish(),
    )
    if capture is not None:
        await keep_state(capture, finished, case)
    return finished

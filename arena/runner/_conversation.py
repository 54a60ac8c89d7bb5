"""Run one conversation task: the agent and its user player in one sandbox, one result."""

from __future__ import annotations

import asyncio
from pathlib import Path

from arena.conversations import user_player
from arena.models import CALLS, CachingChatModel, CallCounter
from arena.records.dialogue import Dialogue
from arena.records.results import RunResult
from arena.runner._agents import AgentCache
from arena.runner._dialogue import DialogueRun, run_dialogue
from arena.runner._end_state import StateWatch
from arena.runner._graph_path import NodePathRecorder, record_path
from arena.runner._invoke import error_text, run_config, task_result
from arena.runner._tasks import Task
from arena.runner._trajectory import TrajectoryRecorder
from arena.runner._user_model import user_chat_model, user_model_config


async def execute_dialogue(
    task: Task,
    model: CachingChatModel,
    sandbox_dir: Path,
    run_id: int,
    timeout_s: float,
    agents: AgentCache,
) -> RunResult:
    """Run the task's conversation case (see :mod:`arena.runner._dialogue`) and return its
    result with the dialogue; errors are recorded, not raised. ``timeout_s`` bounds each
    agent turn. The simulated user's model shares the run's response cache (``model.store``).
    """
    from arena.sandbox import Sandbox, use_sandbox

    variant, case = task.variant, task.case
    config = user_model_config(case, task.user_model)
    label = None if config is None else config.spec
    sandbox = await asyncio.to_thread(Sandbox.create, sandbox_dir)
    recorder = TrajectoryRecorder()
    counter = CallCounter()
    token = CALLS.set(counter)
    run = DialogueRun(Dialogue(ended_by="agent_error", user_model=label))
    paths: NodePathRecorder | None = None
    state: StateWatch | None = None
    try:
        tools = agents.tools(variant, model, sandbox, task.wrap_tools)
        agent, snapshot = agents.build(variant, model, tools, sandbox)
        state = StateWatch(snapshot, case)
        recorder.tool_names = agents.tool_names(variant, agent, tools)
        recorder.side_effecting = agents.side_effecting(variant, agent, tools)
        user = None if config is None else user_chat_model(config, task.repeat, model.store)
        player = user_player(case, repeat=task.repeat, user_model=user)
        invocation = run_config(task, run_id, recorder)
        paths = record_path(agent, invocation)
        with use_sandbox(sandbox):  # every turn writes into the same sandbox
            run = await run_dialogue(
                agent,
                invocation,
                case,
                player,
                recorder=recorder,
                counter=counter,
                timeout_s=timeout_s,
                error_text=lambda exc: error_text(exc, shared=agents.shared(variant)),
                user_model=label,
            )
    except Exception as exc:  # the agent (or the player) could not be built
        run.error = error_text(exc, shared=agents.shared(variant))
    finally:
        CALLS.reset(token)
    recorder.finish(run.messages)
    files = await asyncio.to_thread(sandbox.release)  # snapshot, then delete (inside the root)
    return task_result(
        task,
        run_id,
        recorder,
        counter,
        output=run.output,
        error=run.error,
        latency_s=run.latency_s,
        files=files,
        dialogue=run.dialogue,
        nodes=None if paths is None else paths.path(),
        end_state=None if state is None else state.finish(),
    )

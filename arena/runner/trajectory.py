"""Record a run's trajectory, model calls and token usage from LangChain callbacks.

Tool calls are taken from the model's replies (so a call to a tool that does not exist is
still recorded) and completed with the observation the tool returned. The sub-agent comes
from the ``agent:<name>`` tag that the supervisor puts on its workers' runs.

A call is marked as one to an unknown tool only against ``tool_names``: the tools the agent
really has (the built-in agent's, a factory's graph tool nodes or declared tools, see
:meth:`arena.runner.agents.AgentCache.tool_names`); None checks nothing.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.outputs import LLMResult

from arena.records import TrajectoryStep
from arena.secrets import redact

OBSERVATION_LIMIT = 2000


def _agent_from_tags(tags: list[str] | None) -> str:
    names = [t.split(":", 1)[1] for t in tags or [] if t.startswith("agent:")]
    return names[-1] if names else "agent"


class TrajectoryRecorder(BaseCallbackHandler):
    """Collects tool-call steps, model calls and token usage for one agent run.

    Its handlers only update counters and lists, so they run inline on the event loop
    (``run_inline``) instead of being sent to a thread pool for every callback event, and
    the chain, retriever and custom events it has no use for are not sent to it (tool events
    go with the agent events, so those stay on).
    """

    run_inline = True
    ignore_chain = True
    ignore_retriever = True
    ignore_custom_event = True

    def __init__(self, tool_names: set[str] | None = None) -> None:
        self.tool_names = tool_names
        self.steps: list[TrajectoryStep] = []
        self._by_call_id: dict[str, TrajectoryStep] = {}
        self._tool_runs: dict[UUID, TrajectoryStep] = {}
        self._llm_tags: dict[UUID, list[str]] = {}
        self.model_calls = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.tokens_by_agent: dict[str, tuple[int, int]] = {}

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: Any,
        *,
        run_id: UUID,
        tags: list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        self._llm_tags[run_id] = list(tags or [])

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        self.model_calls += 1
        agent = _agent_from_tags(self._llm_tags.pop(run_id, None))
        for generations in response.generations:
            for generation in generations:
                message = getattr(generation, "message", None)
                if not isinstance(message, AIMessage):
                    continue
                usage: dict[str, Any] = dict(message.usage_metadata or {})
                tokens_in, tokens_out = (
                    int(usage.get("input_tokens", 0)),
                    int(usage.get("output_tokens", 0)),
                )
                self.input_tokens += tokens_in
                self.output_tokens += tokens_out
                seen_in, seen_out = self.tokens_by_agent.get(agent, (0, 0))
                self.tokens_by_agent[agent] = (seen_in + tokens_in, seen_out + tokens_out)
                for call in message.tool_calls:
                    self._add(call["name"], dict(call["args"]), agent, call.get("id"))

    def _add(
        self, tool: str, args: dict[str, Any], agent: str, call_id: str | None
    ) -> TrajectoryStep:
        step = TrajectoryStep(index=len(self.steps), agent=agent, tool=tool, args=args)
        self.steps.append(step)
        if call_id:
            self._by_call_id[call_id] = step
        return step

    def on_tool_start(
        self,
        serialized: dict[str, Any],
        input_str: str,
        *,
        run_id: UUID,
        tags: list[str] | None = None,
        inputs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        call_id = kwargs.get("tool_call_id")
        step = self._by_call_id.get(call_id) if call_id else None
        if step is None:
            name = str((serialized or {}).get("name") or kwargs.get("name") or "tool")
            step = self._add(name, dict(inputs or {}), _agent_from_tags(tags), call_id)
        self._tool_runs[run_id] = step

    def on_tool_end(self, output: Any, *, run_id: UUID, **kwargs: Any) -> None:
        step = self._tool_runs.pop(run_id, None)
        if step is None:
            return
        content = output.content if isinstance(output, ToolMessage) else output
        text = content if isinstance(content, str) else str(content)
        step.observation = text[:OBSERVATION_LIMIT]
        if isinstance(output, ToolMessage) and output.status == "error":
            step.error = step.observation

    def on_tool_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        step = self._tool_runs.pop(run_id, None)
        if step is not None:
            step.error = redact(f"{type(error).__name__}: {error}")[:OBSERVATION_LIMIT]

    def finish(self, messages: list[Any] | None = None) -> list[TrajectoryStep]:
        """Fill observations from the final messages and mark calls to unknown tools."""
        for message in messages or []:
            if isinstance(message, ToolMessage):
                step = self._by_call_id.get(message.tool_call_id)
                if step is not None and not step.observation:
                    step.observation = str(message.content)[:OBSERVATION_LIMIT]
                    if message.status == "error":
                        step.error = step.observation
        for step in self.steps:
            unknown = self.tool_names is not None and step.tool not in self.tool_names
            if unknown and step.error is None:
                step.error = f"{step.tool} is not an available tool"
        return self.steps

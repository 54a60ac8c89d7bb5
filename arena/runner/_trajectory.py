"""Record a run's trajectory, model calls and token usage from LangChain callbacks.

Tool calls are taken from the model's replies (so a call to a tool that does not exist is
still recorded) and completed by the run of the tool that executes them: one executed call is
one step. A tool run is paired with its call by ``tool_call_id`` when the executor passes one
(``ToolNode`` does), else with the earliest call of that tool not yet executed (a hand-written
executor calling ``tool.invoke(args)``), the one with the same arguments first. A tool run
that answers no call of the model (a tool invoked directly) is a step of its own. The
sub-agent comes from the ``agent:<name>`` tag that the supervisor puts on its workers' runs.

``tool_names`` are the tools the variant has (its enabled tools, see
:meth:`arena.runner._agents.AgentCache.tool_names`); a call to any other tool is marked
unavailable (its error starts with :data:`arena.records.results.UNAVAILABLE_TOOL`), whatever the
agent answered it, so scoring never counts it as a call of an expected tool. None checks
nothing.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.outputs import LLMResult

from arena.records.results import UNAVAILABLE_TOOL, TrajectoryStep
from arena.secrets import redact

OBSERVATION_LIMIT = 2000


def message_text(message: AIMessage) -> str:
    """The text of an assistant message: its string content, or its text blocks joined."""
    content = message.content
    if isinstance(content, str):
        return content
    parts = [
        block if isinstance(block, str) else str(block.get("text", ""))
        for block in content
        if isinstance(block, str) or (isinstance(block, dict) and block.get("type") == "text")
    ]
    return "".join(parts)


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
        self.side_effecting: list[str] = []  # the agent's side-effecting tools (the runner's)
        self.replies: list[str] = []  # the text of every assistant message, in order
        self.steps: list[TrajectoryStep] = []
        self._by_call_id: dict[str, TrajectoryStep] = {}
        self._pending: list[TrajectoryStep] = []  # the model's calls no tool run answered yet
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
                text = message_text(message)
                if text.strip():
                    self.replies.append(redact(text))
                for call in message.tool_calls:
                    step = self._add(call["name"], dict(call["args"]), agent, call.get("id"))
                    self._pending.append(step)

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
        name = str((serialized or {}).get("name") or kwargs.get("name") or "tool")
        args = dict(inputs or {})
        step = self._by_call_id.get(call_id) if call_id else None
        if step is None:
            step = self._claim(name, args)
        if step is None:
            step = self._add(name, args, _agent_from_tags(tags), call_id)
        self._pending = [call for call in self._pending if call is not step]
        self._tool_runs[run_id] = step

    def _claim(self, name: str, args: dict[str, Any]) -> TrajectoryStep | None:
        """The earliest unexecuted call of ``name``, one with these arguments first."""
        calls = [step for step in self._pending if step.tool == name]
        return next((step for step in calls if step.args == args), calls[0] if calls else None)

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
        """Fill observations from the final messages and mark calls to unavailable tools."""
        for message in messages or []:
            if isinstance(message, ToolMessage):
                step = self._by_call_id.get(message.tool_call_id)
                if step is not None and not step.observation:
                    step.observation = str(message.content)[:OBSERVATION_LIMIT]
                    if message.status == "error":
                        step.error = step.observation
        if self.tool_names is not None:
            have = ", ".join(sorted(self.tool_names)) or "none"
            for step in self.steps:
                if step.tool not in self.tool_names:
                    step.error = (
                        f"{UNAVAILABLE_TOOL}{step.tool} is not one of this variant's tools ({have})"
                    )
        return self.steps

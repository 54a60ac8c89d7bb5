"""A scripted chat model for unit tests, selected with the spec ``fake:NAME``.

Scripts are registered in code (:func:`register_fake`) or loaded from a YAML/JSON file
(:mod:`arena.models._fake_files`, ``arena --fake-scripts FILE``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from arena.errors import ModelError

# A scripted step: a reply text, a tool call {"tool": name, "args": {...}}, an AIMessage,
# an exception to raise, or a function of the conversation returning any of those.
Step = str | dict[str, Any] | AIMessage | Exception | Callable[[list[BaseMessage]], Any]


class FakeScript:
    """Replies played in order (cycling if asked); records every conversation it saw."""

    def __init__(self, steps: Sequence[Step], *, cycle: bool = False) -> None:
        self.steps = list(steps)
        self.cycle = cycle
        self.calls: list[list[BaseMessage]] = []
        self._lock = threading.Lock()

    def next_message(self, messages: list[BaseMessage]) -> AIMessage:
        """The next scripted reply for this conversation (raises scripted exceptions)."""
        with self._lock:
            index = len(self.calls)
            self.calls.append(list(messages))
            if index >= len(self.steps) and not self.cycle:
                raise ModelError(f"fake script exhausted after {len(self.steps)} replies")
            step = self.steps[index % len(self.steps)]
        return _to_message(step, messages)


def _to_message(step: Step, messages: list[BaseMessage]) -> AIMessage:
    if callable(step) and not isinstance(step, BaseMessage | Exception):
        return _to_message(step(messages), messages)
    if isinstance(step, Exception):
        raise step
    if isinstance(step, AIMessage):
        return step
    if isinstance(step, dict):
        call = {
            "name": step["tool"],
            "args": step.get("args", {}),
            "id": step.get("id", f"call_{step['tool']}_{len(messages)}"),
            "type": "tool_call",
        }
        return AIMessage(content="", tool_calls=[call])
    return AIMessage(content=str(step))


def _echo(messages: list[BaseMessage]) -> str:
    humans = [m for m in messages if isinstance(m, HumanMessage)]
    return f"You said: {humans[-1].content}" if humans else "Nothing to echo."


_SCRIPTS: dict[str, FakeScript] = {"echo": FakeScript([_echo], cycle=True)}
MISS_LOADERS: list[Callable[[], object]] = []
"""Loaders run when a script name is unknown (arena.models._fake_files adds its own)."""


def register_fake(
    name: str, steps: Sequence[Step] | FakeScript, *, cycle: bool = False
) -> FakeScript:
    """Register a script under ``fake:NAME`` (replacing any earlier one) and return it.

    Args:
        name: the name after ``fake:`` in a model spec.
        steps: the replies in order (text, a tool call, an exception to raise, or a function
            of the messages), or a ready script.
        cycle: start again from the first step after the last (default: a call past the
            last step raises ModelError).

    Returns:
        The registered script.
    """
    script = steps if isinstance(steps, FakeScript) else FakeScript(steps, cycle=cycle)
    _SCRIPTS[name] = script
    return script


def fake_script(name: str) -> FakeScript:
    """The script registered under this name (or in the ``--fake-scripts`` file)."""
    if name not in _SCRIPTS:
        for load in MISS_LOADERS:
            load()  # e.g. arena.models._fake_files registers the active file's scripts
    try:
        return _SCRIPTS[name]
    except KeyError:
        raise ModelError(
            f"no fake script named {name!r}; register one with arena.models.register_fake "
            "or load a scripts file with `arena --fake-scripts FILE`"
        ) from None


def _count_tokens(messages: Sequence[BaseMessage]) -> int:
    return sum(len(str(m.content).split()) + 3 for m in messages)


class FakeChatModel(BaseChatModel):
    """Plays a registered FakeScript; reports word counts as token usage."""

    script: str = "echo"

    @property
    def _llm_type(self) -> str:
        return "arena-fake"

    def bind_tools(
        self, tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool], **kwargs: Any
    ) -> Runnable[LanguageModelInput, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        message = fake_script(self.script).next_message(messages)
        usage = {
            "input_tokens": _count_tokens(messages),
            "output_tokens": _count_tokens([message]) - 3,
        }
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        message = message.model_copy(update={"usage_metadata": usage})
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._generate(messages, stop=stop, **kwargs)

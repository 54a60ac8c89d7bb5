"""Scripted fake-model replies shared by the end-to-end tests: a variant that answers each
case from a table (or has "No idea."), and a pairwise judge that prefers any answer to that."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from langchain_core.messages import BaseMessage

#: What a bad variant answers to everything.
NO_IDEA = "No idea."


def answers_by_case(answers: Mapping[str, str] | None) -> Callable[[list[BaseMessage]], str]:
    """A reply script: ``answers[CASE]`` for a question ending in ``#CASE``; :data:`NO_IDEA`
    to everything when ``answers`` is None."""

    def reply(messages: list[BaseMessage]) -> str:
        case = str(messages[-1].content).split("#")[-1].strip()
        return answers[case] if answers is not None else NO_IDEA

    return reply


def prefers_an_answer(messages: list[BaseMessage]) -> str:
    """A text-mode pairwise judge: a tie for equal answers, else whichever is not NO_IDEA."""
    text = str(messages[-1].content)
    # Each answer sits between its boundary tags: <answer-ID-A>\n...\n</answer-ID-A>.
    a = text.split("Answer A:\n", 1)[1].split("\n\n", 1)[0].split("\n")[1:-1]
    b = text.split("Answer B:\n", 1)[1].split("\n\n", 1)[0].split("\n")[1:-1]
    if a == b:
        return "[[A=B]]"
    return "[[A>B]]" if a != [NO_IDEA] else "[[B>A]]"

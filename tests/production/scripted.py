"""Scripted models for the shadow tests: a candidate that answers well or badly, and a judge
that prefers the answer marked GOOD (it reads both answers from its prompt)."""

from __future__ import annotations

import re
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage

from arena.models import register_fake

_ANSWER = re.compile(r"<answer-[0-9a-f]+-([AB])>\n(.*?)\n</answer-[0-9a-f]+-\1>", re.S)


def judge_reply(messages: list[BaseMessage]) -> AIMessage:
    """``[[A>B]]`` when only A is GOOD, ``[[B>A]]`` when only B is, else ``[[A=B]]``."""
    answers = dict(_ANSWER.findall(str(messages[-1].content)))
    good = {seat for seat, text in answers.items() if "GOOD" in text}
    verdict = {frozenset("A"): "A>B", frozenset("B"): "B>A"}.get(frozenset(good), "A=B")
    return AIMessage(f"Compared. [[{verdict}]]")


def register_models() -> None:
    """``fake:better`` answers GOOD, ``fake:worse`` does not, ``fake:prefers-good`` judges."""
    register_fake("better", [lambda _: AIMessage("A GOOD and complete answer.")], cycle=True)
    register_fake("worse", [lambda _: AIMessage("I am not sure.")], cycle=True)
    register_fake("prefers-good", [judge_reply], cycle=True)


def variant_file(folder: Path, name: str, model: str) -> str:
    """A variant YAML of the research agent on ``fake:MODEL``, without tools."""
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nmodel:\n  spec: fake:{model}\ntools: []\n")
    return str(path)

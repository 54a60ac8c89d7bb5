"""The decision card, first on the leaderboard tab: which variant is best, is the cheaper
model good enough, can the judge be trusted, each in a sentence with its counts
(:func:`arena.gate.run_answers`, the figures formatted by :mod:`arena.display`)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from arena.app import data
from arena.app.text import md

MARKS = {"yes": "✓", "no": "✗", "open": "…"}
"""A status symbol beside the answer, which always opens with its word (Yes, No, None
proven yet...): never colour alone."""
KEYS = ("best", "cheaper", "trust")


def answer_markdown(answer: dict[str, Any]) -> str:
    """One answer as Markdown: the question in bold, then the status and the sentence."""
    return f"**{md(answer['question'])}**  \n{MARKS[answer['status']]} {md(answer['answer'])}"


def answers_card(url: str, run_id: int, judge_key: str | None) -> dict[str, Any]:
    """The three answers side by side, each in its bordered box; returns them."""
    found = data.load_answers(url, run_id, judge_key)
    for column, key in zip(st.columns(3), KEYS, strict=True):
        with column.container(border=True):
            st.markdown(answer_markdown(found[key]))
    st.caption(
        f"Every counted golden case of run #{run_id}, judged by "
        f"{md(found['judge']) if found['judge'] else 'no judge yet'}; the cheaper model's "
        "answer is the verdict `arena compare` gives (the Compare tab shows it in full). The "
        "table below follows the sidebar's tier and category."
    )
    return found

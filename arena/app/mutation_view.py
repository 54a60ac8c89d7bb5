"""The dataset's latest mutation pass (``arena mutate``): its score and what it would miss."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from arena import display
from arena.app import data
from arena.app.text import md


def survivors_frame(summary: dict[str, Any]) -> pd.DataFrame:
    """One row per surviving mutant: its id and why no case caught it."""
    rows = summary["survivors"]
    return pd.DataFrame(
        {"Mutant": [s["id"] for s in rows], "Why it survived": [s["why_survived"] for s in rows]}
    )


def mutation_section(url: str, dataset: str) -> None:
    """The latest mutation score of ``dataset`` and its survivors (or how to get one)."""
    st.subheader("What the golden set would miss")
    summary = data.load_mutation(url, dataset)
    if summary is None:
        st.info(
            f"No mutation pass of {md(dataset)} yet: `arena mutate --variant FILE --dataset "
            "FILE` injects faults into a variant and shows which ones no case catches."
        )
        return
    st.metric(
        "Mutation score",
        display.percent(summary["score"]),
        help="Killed mutants / mutants that behaved differently from the original",
    )
    st.caption(
        f"{md(summary['variant'])}, {md(summary['created_at'][:10])}: "
        f"{len(summary['survivors'])} of {summary['mutants']} mutants survived."
    )
    if summary["survivors"]:
        st.dataframe(survivors_frame(summary), hide_index=True, width="stretch")

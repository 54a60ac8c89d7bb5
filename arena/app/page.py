"""The leaderboard page that Streamlit runs: ``arena app`` serves this file, and
``streamlit run app.py`` in a source checkout runs it through the repository's thin ``app.py``.

Reads the database named by $ARENA_DB_URL (default ``sqlite:///arena.db``); never calls a
model; writes only the votes cast in the Vote tab. Page layout only: the data, charts and
sections live in the other modules of ``arena.app``.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from arena.app import data, views
from arena.app.compare_view import compare_section
from arena.app.extensions_view import extensions_section
from arena.app.health_view import health_section
from arena.app.mutation_view import mutation_section
from arena.app.palette import PAGE_CSS
from arena.app.shadow_view import shadow_section
from arena.app.text import error_text, guarded, md
from arena.app.trends_view import trends_section
from arena.app.vote_view import vote_section
from arena.storage import database_problem, resolve_url


def main() -> None:
    """Draw the whole page once (Streamlit calls it again on every interaction)."""
    st.set_page_config(page_title="Agent Arena", page_icon="🏟️", layout="wide")
    st.html(PAGE_CSS)  # a fixed style (AA contrast for captions); no data ever reaches it
    st.title("Agent Arena leaderboard")
    st.caption(
        "Which agent variant is better? Pairwise judge ratings next to absolute golden "
        "scores, cost and latency, for every stored run."
    )
    url = resolve_url()
    runs = _runs_or_stop(url)
    try:
        ctx = views.sidebar(url, runs)
    except Exception as exc:  # e.g. a run whose dataset cannot be read
        st.warning(f"Could not read the selected run: {md(error_text(exc))}")
        st.stop()
    views.run_header(ctx)
    _tabs(ctx)


def _runs_or_stop(url: str) -> list[dict[str, Any]]:
    """The stored runs; an empty page saying why (and the script stopped) when there are none."""
    found = database_problem(url)
    problem = None if found is None else views.problem_text(found)
    runs: list[dict[str, Any]] = []
    if problem is None:
        try:
            runs = data.load_runs(url)
        except Exception as exc:  # an unreadable database is a message, never a stack trace
            problem = f"The runs could not be read ({md(error_text(exc))})."
        else:
            if not runs:
                problem = "The database holds no runs yet."
    if problem is not None:
        views.empty_page(problem, url)
        st.stop()
    return runs


def _tabs(ctx: views.Context) -> None:
    board, trends, compare, health, vote, shadow, extensions = st.tabs(
        [
            "Leaderboard",
            "Trends",
            "Compare two variants",
            "Judge health",
            "Vote",
            "Production shadow",
            "Extensions",
        ]
    )
    with board:
        with guarded("the leaderboard"):
            views.leaderboard_section(ctx)
        with guarded("the breakdown charts"):
            views.breakdown_section(ctx)
    with trends, guarded("the trends"):
        trends_section(ctx)
    with compare, guarded("the comparison"):
        compare_section(ctx)
    with health, guarded("the judge health"):
        health_section(ctx)
    with health, guarded("the mutation score"):
        mutation_section(ctx.url, str(ctx.run["dataset"]))
    with vote, guarded("the vote"):
        vote_section(ctx)
    with shadow, guarded("the production shadow"):
        shadow_section(ctx)
    with extensions, guarded("the extensions"):
        extensions_section()


if __name__ == "__main__":  # `streamlit run` executes this file as __main__
    main()

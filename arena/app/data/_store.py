"""The app's cache: one Store per database URL, how long a read stays valid, and the
button that forgets every read."""

from __future__ import annotations

import streamlit as st

from arena.storage import Store

TTL = 30
"""Seconds a cached read stays valid."""
ALL = "all"
"""The sidebar's "no filter" choice of tier and category."""


@st.cache_resource(show_spinner=False)
def get_store(url: str) -> Store:
    """One Store (engine and connection pool) per database URL."""
    return Store(url)


def clear_caches() -> None:
    """Forget every cached read (the "reload data" button)."""
    st.cache_data.clear()

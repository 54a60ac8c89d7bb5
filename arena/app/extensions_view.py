"""The Extensions tab: every registered kind with each entry's name and one-line summary."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from arena.app.text import code, md
from arena.extend import registries
from arena.reports._registered import registered_kinds


def extensions_section() -> None:
    """List what is registered (built-ins, run-time and installed entry points), kind by kind."""
    st.caption(
        "What this installation can use: built-ins and extensions installed as packages. "
        "See docs/extending.md to add one."
    )
    for kind in registered_kinds(registries()):
        st.markdown(f"**{md(kind.kind)}s** (entry-point group `{code(kind.entry_point_group)}`)")
        if not kind.entries:
            st.info(f"No {md(kind.kind)} is registered.")
            continue
        rows = {"Name": list(kind.entries), "Summary": list(kind.entries.values())}
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")

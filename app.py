"""Agent Arena leaderboard: ``streamlit run app.py`` in a source checkout (or ``arena app``).

A pointer: the page is ``arena/app/page.py``, shipped in the package, which ``arena app``
serves directly; both run the same page with the same settings (``.streamlit/config.toml``
here, command-line flags in ``arena app``).
"""

from arena.app.page import main

main()

"""The Streamlit leaderboard app: cached reads, Altair charts and page sections.

The page is ``arena.app.page``: ``arena app`` serves it, the repository's ``app.py`` runs it.
It only reads the database and never calls a model.
"""

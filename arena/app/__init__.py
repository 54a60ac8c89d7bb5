"""The Streamlit leaderboard app: cached reads, Altair charts and page sections.

The page itself is ``app.py`` at the repository root (``arena app`` starts it). It only reads
the database and never calls a model.
"""

"""One module per schema revision, oldest first (``0001_baseline`` is the schema of 0.1.0)."""

"""Variants, the agent configurations under test: loaded from YAML, and versioned by everything
that decides their answers."""

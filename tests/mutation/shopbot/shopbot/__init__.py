"""The shop team's agent (a trial of `arena mutate`, issue 39)."""

"""The record types shared across layers: a run's results, an answer file's contents, and where a
run came from."""

"""One agent-arena extension of each kind, registered through entry points only, written
against `arena.extend` alone."""

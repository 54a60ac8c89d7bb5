"""Where the repository's data lives (overridable for installed copies)."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The data folder: $ARENA_DATA_DIR, else the repository's ``data/``."""
    env = os.environ.get("ARENA_DATA_DIR")
    return Path(env) if env else Path(__file__).resolve().parents[1] / "data"

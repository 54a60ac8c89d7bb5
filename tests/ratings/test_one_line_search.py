"""One Armijo line search for every Newton solver (issue 37): the acceptance rule is written
once, in ``arena/ratings/_line_search.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

RATINGS = Path(__file__).resolve().parents[2] / "arena" / "ratings"


def test_the_armijo_rule_is_written_once() -> None:
    writers = sorted(p.name for p in RATINGS.glob("*.py") if "1e-4 * t" in p.read_text())
    assert writers == ["_line_search.py"]
    users = sorted(p.name for p in RATINGS.glob("*.py") if "armijo_steps(" in p.read_text())
    assert {"_bradley_terry.py", "_sparse_newton.py", "_style.py"} <= set(users)

"""The fuzz suite's bounds: how many examples, how long each may take, and the files.

Every fuzz test runs a bounded, derandomised number of examples (the same inputs on every
run, so CI cannot flake on a new draw) and each example under a hard time limit
(:func:`tests.support.time_limit.time_limit`), so a hang is a failure, never a stuck suite.
``ARENA_FUZZ_EXAMPLES`` raises the count for a longer local hunt (with ``derandomize`` off):
``ARENA_FUZZ_EXAMPLES=2000 pytest tests/fuzz``.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, settings

from arena.errors import InputError

HUNT = int(os.environ.get("ARENA_FUZZ_EXAMPLES", "0"))
EXAMPLE_SECONDS = 10.0  # a hang bound, hundreds of times what any example needs

# No deadline: hypothesis's deadline fails an example that was merely slow (a loaded machine);
# the stop of a hang is time_limit (in parses_or_refuses), a bound on finishing at all.
settings.register_profile(
    "arena-fuzz",
    max_examples=HUNT or 40,
    deadline=None,
    derandomize=not HUNT,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FUZZ = settings.get_profile("arena-fuzz")
FEW = settings(FUZZ, max_examples=HUNT or 20)


@contextmanager
def scratch() -> Iterator[Path]:
    """A folder for the files one fuzz test writes (examples overwrite each other)."""
    with tempfile.TemporaryDirectory(prefix="arena-fuzz-") as folder:
        yield Path(folder)


def parses_or_refuses(call: object, *args: object) -> object | None:
    """Call ``call(*args)`` within the time bound: its result, or None when it raised the
    project's input error (any other exception fails the test)."""
    from tests.support.time_limit import time_limit

    assert callable(call)
    with time_limit(EXAMPLE_SECONDS):
        try:
            return call(*args)
        except InputError as exc:
            assert exc.file is None or isinstance(exc.file, str)
            return None

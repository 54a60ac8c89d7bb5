"""Project-wide promises: API keys never stored, `import arena` stays light, no test asserts
on a measured duration."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.golden import GoldenDataset
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from tests.support.timed_asserts import timed_assertions, timed_assertions_in

pytestmark = pytest.mark.unit

SECRET = "sk-test-must-never-be-stored-0123456789"


def test_api_keys_never_reach_the_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_TEST_KEY", SECRET)
    monkeypatch.setenv("ARENA_RETRIES", "2")
    db = tmp_path / "arena.db"
    variant = Variant.model_validate(
        {
            "name": "remote",
            "model": {
                "spec": "openai:gpt-4o-mini",
                "api_key_env": "ARENA_TEST_KEY",
                "base_url": "http://127.0.0.1:9/v1",
                "timeout": 2,
            },
        }
    )
    dataset = GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": ["calculate"],
            "test_cases": [{"id": "C", "input": "hi", "category": "happy_path"}],
        }
    )
    report = run_suite(Store(f"sqlite:///{db}"), dataset, [variant], RunOptions(progress=False))
    assert report.results[0].error and "Connection" in report.results[0].error
    for path in tmp_path.glob("arena.db*"):
        assert SECRET.encode() not in path.read_bytes()
    assert SECRET not in report.model_dump_json()


def _fresh_interpreter(code: str) -> str:
    """What ``code`` prints in a new Python process (nothing imported before it)."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_import_arena_is_light() -> None:
    code = (
        "import sys, arena; heavy = [m for m in ('langchain_core', 'langgraph', 'sqlalchemy', "
        "'numpy', 'scipy', 'streamlit') if m in sys.modules]; print(heavy)"
    )
    out = _fresh_interpreter(code)
    assert out == "[]"


def test_the_commands_load_scipy_stats_only_when_they_use_it() -> None:
    """``scipy.stats`` costs about a second at import: the gate's, runner's, judging and
    sequential modules import it inside the functions that use it, so ``arena gate`` or
    ``arena run`` on a passing change never pays for it."""
    code = (
        "import sys, arena.gate._pipeline, arena.runner, arena.battles, arena.trust, "
        "arena.sequential, arena.compare._compare; print('scipy.stats' in sys.modules)"
    )
    out = _fresh_interpreter(code)
    assert out == "False"


def test_the_gates_interval_and_the_sequential_boundaries_load_no_scipy_stats() -> None:
    """Every gate of two or more cases widens its bootstrap interval by a t quantile, and every
    sequential look spends alpha by the normal: they use ``scipy.special`` (the functions
    ``scipy.stats`` calls), so a gate run never pays scipy.stats' import (most of a second)."""
    code = (
        "import sys\n"
        "from arena.gate._noise import paired_bootstrap\n"
        "from arena.sequential._spending import spent\n"
        "from arena.trust._accuracy import _exact_interval\n"
        "paired_bootstrap([1.0, 0.0, 1.0], [0.0, 0.0, 1.0])\n"
        "spent(0.05, 0.5)\n"
        "_exact_interval(3, 10)\n"
        "print('scipy.stats' in sys.modules)"
    )
    assert _fresh_interpreter(code) == "False"


def test_reading_arena_yaml_loads_no_scoring() -> None:
    """Every command reads ``arena.yaml``'s defaults (the gate's limits and rules among them):
    that loads the limits' and rules' models, not the scoring they are applied with, so a
    command that scores nothing (``arena runs``, ``show``, ``db``) never pays for it."""
    code = (
        "import sys, arena.project._defaults, arena.cli.config_defaults; "
        "print(sorted(m for m in sys.modules if m.startswith('arena.scoring')))"
    )
    out = _fresh_interpreter(code)
    assert out == "[]"


def test_no_test_asserts_on_a_measured_duration() -> None:
    """A loaded machine makes any timed assertion fail (CI once failed on the plan's estimate
    against the measured time): durations are printed by benchmarks/, tests assert what the
    code does."""
    assert timed_assertions_in(Path(__file__).parent) == []


@pytest.mark.parametrize(
    "source",
    [
        "import time\nt0 = time.perf_counter()\nf()\nassert time.perf_counter() - t0 < 1.0\n",
        "import time\ns = time.monotonic()\nf()\nelapsed = time.monotonic() - s\n"
        "assert elapsed < 10, elapsed\n",
        "import time\na = time.time()\nx = time.time() - a\nb = time.time()\n"
        "y = time.time() - b\nassert 0.5 <= x / y <= 2.0\n",
        "from time import perf_counter\ns = perf_counter()\nassert perf_counter() - s < 2\n",
        "from hypothesis import settings\n@settings(deadline=500)\ndef test(): pass\n",
    ],
)
def test_a_timed_assertion_is_found(source: str) -> None:
    assert timed_assertions(source), source


@pytest.mark.parametrize(
    "source",
    [
        # a bound on finishing at all: a wait loop's deadline, a hang guard
        "import time\ndeadline = time.monotonic() + 60\nwhile time.monotonic() < deadline:\n"
        "    assert time.monotonic() < deadline, 'never started'\n",
        "from hypothesis import settings\n@settings(deadline=None)\ndef test(): pass\n",
        "assert result.latency_s == 2.5\n",
    ],
)
def test_a_hang_guard_is_no_timed_assertion(source: str) -> None:
    assert timed_assertions(source) == []


def test_collection_wrote_the_bytecode_the_tests_do_not() -> None:
    # tests/conftest.py: the rewritten test modules are cached for the processes the tests
    # start, and the tests themselves write bytecode only as the environment says
    assert sys.dont_write_bytecode == bool(sys.flags.dont_write_bytecode)
    cached = f"{Path(__file__).stem}.{sys.implementation.cache_tag}-pytest-{pytest.__version__}.pyc"
    assert (Path(__file__).parent / "__pycache__" / cached).is_file()

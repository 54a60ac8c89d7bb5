"""tests/conftest.py's speed rules: the closest of ``unit``/``system`` wins, and unit tests
over the CPU budget are listed at the end of the run."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.unit
pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).parent / "conftest.py").read_text(encoding="utf-8")
TESTS = """
import time
import pytest

pytestmark = pytest.mark.unit

def test_fast():
    pass

@pytest.mark.system
def test_end_to_end():
    pass

@pytest.mark.system
@pytest.mark.parametrize("n", [1, 2])
def test_end_to_end_twice(n):
    pass

def test_busy():
    started = time.process_time()
    while time.process_time() - started < 0.05:
        pass
"""


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # no plugin re-imports per run
    pytester.makeconftest(CONFTEST.replace("UNIT_CPU_BUDGET_S = 0.5", "UNIT_CPU_BUDGET_S = 0.02"))
    pytester.makeini("[pytest]\nmarkers =\n    unit: fast\n    system: end to end\n")
    pytester.makepyfile(test_speed=TESTS)
    return pytester


def _selected(project: pytest.Pytester, expression: str) -> set[str]:
    result = project.runpytest("-m", expression, "--collect-only", "-q", "-p", "no:cacheprovider")
    return {line.split("::")[1] for line in result.outlines if "::" in line}


def test_a_system_marker_on_the_test_beats_the_modules_unit_marker(
    project: pytest.Pytester,
) -> None:
    assert _selected(project, "unit") == {"test_fast", "test_busy"}
    assert _selected(project, "system") == {
        "test_end_to_end",
        "test_end_to_end_twice[1]",
        "test_end_to_end_twice[2]",
    }


def test_unit_tests_over_the_cpu_budget_are_listed(project: pytest.Pytester) -> None:
    result = project.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=5)
    listed = [line for line in result.outlines if "test_speed.py::" in line]
    assert len(listed) == 1 and "test_busy" in listed[0]
    assert any("make them faster or mark them system" in line for line in result.outlines)

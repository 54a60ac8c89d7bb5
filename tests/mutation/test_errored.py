"""A mutant whose runs failed in the model (it could not be started or reached) has no
verdict: ``errored``, left out of the score, never a kill (a trial's weaker model was not
installed, and ``model_weaker`` counted as killed). A score no mutant counts in, or one with
errored mutants, cannot pass ``--min-score``: exit 2 naming the cause."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.golden import GoldenDataset
from arena.models import model_failure, model_failure_reason, register_fake
from arena.mutation import MutationOptions, mutation_markdown, run_mutation
from arena.mutation._report import errored_cause
from arena.storage import Store
from arena.variants.variant import Variant
from tests.examples.test_own_agent_example import User
from tests.mutation.conftest import DESK

# The error a trial stored for model_weaker's runs: the 0.5B local model's server could not
# start, agent-arena[local] not being installed (cut).
SERVER_DIED = (
    "ModelError: llama.cpp server for qwen2.5-coder-0.5b exited (1):\n"
    "Traceback (most recent call last):\n"
    '  File "<frozen runpy>", line 198, in _run_module_as_main\n'
    '  File "/venv/lib/python3.11/site-packages/arena/models/_llama_child.py", line 25, in main\n'
    "    import xllamacpp\n"
    "ModuleNotFoundError: No module named 'xllamacpp'\n\n\n"
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.11/site-packages/arena/runner/_execute.py", line 60\n'
)


@pytest.mark.unit
@pytest.mark.parametrize(
    ("error", "model"),
    [
        (SERVER_DIED, True),
        ("APIConnectionError: Connection error.", True),
        ("openai.APITimeoutError: Request timed out.", True),
        ("AuthenticationError: Error code: 401", True),
        ("MutantToolError: lookup_invoice failed (mutation: tool_raises)", False),
        ("RuntimeError: the tool broke\n\nTraceback ...", False),
        ("timeout: no answer within 600 s", False),
        ("empty answer: the agent finished without a final answer", False),
        (None, False),
    ],
)
def test_a_model_failure_is_told_from_the_agent_s(error: str | None, model: bool) -> None:
    assert model_failure(error) is model


@pytest.mark.unit
def test_the_cause_names_the_model_what_stopped_it_and_what_to_do() -> None:
    assert model_failure_reason(SERVER_DIED) == "ModuleNotFoundError: No module named 'xllamacpp'"
    assert errored_cause("model_weaker", "local:qwen2.5-coder-0.5b", SERVER_DIED) == (
        "local:qwen2.5-coder-0.5b could not be reached or started: ModuleNotFoundError: No "
        "module named 'xllamacpp' (install agent-arena[local] or pass --weaker-model with a "
        "model you can reach)"
    )


@pytest.mark.system
def test_an_unreachable_weaker_model_is_errored_not_killed(
    desk: tuple[Variant, GoldenDataset], store: Store
) -> None:
    variant, dataset = desk
    options = MutationOptions(operators=["tool_raises", "model_weaker"], weaker_model="fake:gone")
    report = run_mutation(store, dataset, variant, options)
    by_id = {m.id: m for m in report.mutants}
    weaker = by_id["model_weaker:model"]
    assert weaker.verdict == "errored" and not weaker.killed and weaker.killed_by == []
    assert weaker.errored_cases == ["D-1", "D-2"] and weaker.why_survived is None
    assert weaker.error is not None and weaker.error.startswith(
        "fake:gone could not be reached or started: ModelError: no fake script named 'gone'"
    )
    assert by_id["tool_raises:open_ticket"].killed  # a tool that raises still kills
    assert report.counted == 3 and report.score == pytest.approx(2 / 3)
    document = report.as_json()
    assert document["errored"] == ["model_weaker:model"] and document["counted"] == 3
    assert document["error"] is None  # other mutants count, and no minimum is asked
    assert "1 of 4 mutants errored" in report.as_json(0.1)["error"]
    assert report.as_json(0.1)["passed"] is False
    markdown = mutation_markdown(report)
    assert "# Mutation score: 66.7% (2 of 3 mutants killed)" in markdown
    assert "## Errored: no verdict, not counted" in markdown
    assert "- `model_weaker:model` (D-1, D-2): fake:gone could not be reached" in markdown


MUTATE = ("mutate", "--variant", "variants/baseline.yaml", "--dataset", "golden/desk.json")


@pytest.fixture
def team(tmp_path: Path) -> User:
    folder = tmp_path / "desk"
    shutil.copytree(DESK, folder)
    return User(folder)


def _run(team: User, *argv: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    """``arena --fake-scripts fake_models.yaml ARGV`` in the team's folder, its exit ``code``."""
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli", "--fake-scripts", "fake_models.yaml", *argv],
        cwd=team.folder, env=team.env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == code, (argv, done.stdout[-3000:], done.stderr[-3000:])
    return done


@pytest.mark.system
def test_errored_mutants_exit_2_when_nothing_counts_or_a_minimum_is_asked(team: User) -> None:
    weaker = ("--operators", "model_weaker", "--weaker-model", "fake:gone")
    done = _run(team, *MUTATE, *weaker, code=2)
    assert "arena: error: every mutant errored" in done.stderr
    assert "model_weaker:model: fake:gone could not be reached or started" in done.stderr
    assert "mutation score 100%: 0 of 0 mutants killed (0 equivalent, 1 errored)" in done.stdout
    assert "ERRORED" in done.stdout and (team.folder / "reports" / "mutate.md").exists()

    both = ("--operators", "tool_raises", "model_weaker", "--weaker-model", "fake:gone")
    done = _run(team, *MUTATE, *both)  # no minimum: the score of the 3 that count
    assert "2 of 3 mutants killed (0 equivalent, 1 errored)" in done.stdout
    done = _run(team, *MUTATE, *both, "--min-score", "0.1", code=2)
    assert "arena: error: 1 of 4 mutants errored" in done.stderr


@pytest.mark.system
def test_a_score_no_mutant_counts_in_cannot_pass_a_minimum(team: User) -> None:
    equivalent = ("--operators", "prompt_dropped,max_steps_one")
    done = _run(team, *MUTATE, *equivalent, "--min-score", "0.99", code=2)
    assert "arena: error: no mutant counts (2 mutants, 2 equivalent): the score says nothing" in (
        done.stderr
    )
    _run(team, *MUTATE, *equivalent)  # no minimum asked: the score is printed, exit 0
    same = ("--operators", "model_weaker", "--weaker-model", "local:qwen2.5-coder-1.5b")
    done = _run(team, *MUTATE, *same, "--min-score", "0.5", code=2)  # its own model: no mutant
    assert "make no mutant of the variant baseline" in done.stderr


@pytest.mark.system
def test_a_model_that_failed_in_an_earlier_pass_is_tried_again(
    desk: tuple[Variant, GoldenDataset], store: Store
) -> None:
    variant, dataset = desk
    options = MutationOptions(operators=["model_weaker"], weaker_model="fake:later")
    assert run_mutation(store, dataset, variant, options).mutants[0].verdict == "errored"
    register_fake("later", ["Sorry, I cannot help with that."], cycle=True)  # reachable now
    again = run_mutation(store, dataset, variant, options).mutants[0]
    assert again.verdict == "killed" and again.killed_by == ["D-1", "D-2"]


@pytest.mark.system
def test_a_weaker_model_that_cannot_be_built_is_refused_before_anything_runs(
    team: User,
) -> None:
    team.env.pop("OPENAI_API_KEY", None)
    weaker = ("--operators", "tool_raises", "model_weaker", "--weaker-model", "openai:gpt-4o-mini")
    done = _run(team, *MUTATE, *weaker, code=2)
    assert "variant baseline.model_weaker.model: model openai:gpt-4o-mini: environment " in (
        done.stderr
    )
    assert "mutant 1/" not in done.stderr  # refused before the first mutant ran
    assert not (team.folder / "arena.db").exists() and not (team.folder / "reports").exists()

"""arena.yaml is validated with errors naming the file and the field; flags override it and a
bad flag is named; provenance comes from CI variables or the .git folder."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from arena.ci._workflows import arena_yaml
from arena.cli.gate_flags import add_gate_run_flags, add_limit_flags, gate_config
from arena.errors import InputError
from arena.project._config import EXAMPLE, GateConfig, load_config
from arena.records.provenance import git_info, provenance

pytestmark = pytest.mark.unit


def test_the_example_is_every_default(tmp_path: Path) -> None:
    path = tmp_path / "arena.yaml"
    path.write_text(EXAMPLE)
    loaded = load_config(path)
    expected = GateConfig(baseline="baselines/baseline.json", candidate="baseline")
    assert loaded.model_dump() == expected.model_dump()
    assert loaded.path("golden.json") == str(tmp_path / "golden.json")
    (tmp_path / "init.yaml").write_text(arena_yaml("b.json", "mine"))
    assert load_config(tmp_path / "init.yaml").candidate == "mine"


def test_an_empty_file_is_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "arena.yaml"
    path.write_text("# nothing set\n")
    assert load_config(path).run.tier == "critical"


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("rules:\n  max_drop: 2\n", "rules.max_drop", "less than or equal to 1"),
        ("rules:\n  block: [suite_drop, nope]\n", "rules.block", "unknown rule(s) nope"),
        ("run:\n  tier: gold\n", "run.tier", "'critical'"),
        ("run:\n  repeats: 0\n", "run.repeats", "greater than or equal to 1"),
        (
            "absolute:\n  min_tier_pass_rate: {gold: 0.5}\n",
            "absolute.min_tier_pass_rate",
            "unknown tier(s) gold",
        ),
        ("budget:\n  max_cost_per_query: -1\n", "budget.max_cost_per_query", "greater than"),
        ("compare:\n  fail_on: [maybe]\n", "compare.fail_on.0", "'worse'"),
        ("surprise: 1\n", "surprise", "Extra inputs"),
        # strict types, as in the case files: nothing is converted without a word
        ("mutation:\n  min_score: true\n", "mutation.min_score", "must be a number, got true"),
        ('run:\n  repeats: "3"\n', "run.repeats", 'must be an integer, got "3"'),
        ("run:\n  repeats: 3.0\n", "run.repeats", "must be an integer, got 3.0"),
        ("run:\n  timeout_s: true\n", "run.timeout_s", "must be a number, got true"),
        ('rules:\n  max_drop: "0.1"\n', "rules.max_drop", 'must be a number, got "0.1"'),
        ("compare:\n  sequential: 1\n", "compare.sequential", "must be true or false, got 1"),
        ('compare:\n  sequential: "yes"\n', "compare.sequential", "must be true or false"),
        (
            "absolute:\n  min_tier_pass_rate: {critical: true}\n",
            "absolute.min_tier_pass_rate.critical",
            "must be a number, got true",
        ),
    ],
)
def test_bad_settings_name_the_file_and_the_field(
    tmp_path: Path, text: str, field: str, message: str
) -> None:
    path = tmp_path / "arena.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as caught:
        load_config(path)
    text_ = str(caught.value)
    assert str(path) in text_ and f"field {field}" in text_ and message in text_


@pytest.mark.parametrize("content", [b"rules: [unclosed\n", b"\xff\xfe not utf-8", b"- a list\n"])
def test_unreadable_files_name_the_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "arena.yaml"
    path.write_bytes(content)
    with pytest.raises(InputError, match=str(path)):
        load_config(path)
    with pytest.raises(InputError, match="no such file"):
        load_config(tmp_path / "missing.yaml")


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_gate_run_flags(parser)
    add_limit_flags(parser)
    return parser.parse_args(argv)


def test_flags_override_the_file(tmp_path: Path) -> None:
    path = tmp_path / "arena.yaml"
    path.write_text("run:\n  repeats: 3\n  tier: all\nrules:\n  max_drop: 0.1\n")
    config = gate_config(
        _parse(
            [
                "--config",
                str(path),
                "--repeats",
                "2",
                "--block",
                "critical_broken,pass_to_fail",
                "--min-tier-pass-rate",
                "critical=0.8",
                "--max-p90-latency",
                "30",
                "--fail-on",
                "worse,inconclusive",
                "--judge",
                "none",
            ]
        )
    )
    assert config.run.repeats == 2 and config.run.tier == "all"
    assert config.rules.max_drop == 0.1 and config.rules.block == [
        "critical_broken",
        "pass_to_fail",
    ]
    assert config.absolute.min_tier_pass_rate == {"critical": 0.8}
    assert config.budget.max_p90_latency_s == 30
    assert config.compare.fail_on == ["worse", "inconclusive"] and config.judge is None


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["--max-drop", "3"], "--max-drop"),
        (["--block", "everything"], "--block"),
        (["--repeats", "0"], "--repeats"),
        (["--min-category-pass-rate", "happy_path"], "--min-category-pass-rate"),
        (["--min-category-pass-rate", "bad name=0.5"], "--min-category-pass-rate"),
        (["--max-cost-increase", "-0.5"], "--max-cost-increase"),
    ],
)
def test_a_bad_flag_is_named(argv: list[str], flag: str) -> None:
    with pytest.raises(InputError, match=f"field {flag}"):
        gate_config(_parse(argv))


def test_github_actions_provenance() -> None:
    env = {
        "GITHUB_ACTIONS": "true",
        "GITHUB_SHA": "abc123",
        "GITHUB_HEAD_REF": "feature/x",
        "GITHUB_REF_NAME": "12/merge",
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "me/agent",
        "GITHUB_RUN_ID": "42",
    }
    assert provenance(env) == {
        "commit": "abc123",
        "branch": "feature/x",
        "ci_url": "https://github.com/me/agent/actions/runs/42",
    }


def test_gitlab_provenance_and_overrides() -> None:
    env = {
        "CI_COMMIT_SHA": "def",
        "CI_COMMIT_REF_NAME": "main",
        "CI_JOB_URL": "https://gitlab.example/job/1",
    }
    assert provenance(env)["ci_url"] == "https://gitlab.example/job/1"
    assert provenance(env | {"ARENA_BRANCH": "release"})["branch"] == "release"


def _git(root: Path, head: str) -> Path:
    git = root / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "HEAD").write_text(head)
    return git


def test_git_provenance_from_the_git_folder(tmp_path: Path) -> None:
    git = _git(tmp_path, "ref: refs/heads/topic\n")
    (git / "refs" / "heads" / "topic").write_text("1" * 40 + "\n")
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    assert git_info(nested) == {"commit": "1" * 40, "branch": "topic"}
    assert provenance({}, start=nested) == {"commit": "1" * 40, "branch": "topic"}


def test_git_provenance_from_packed_refs_and_detached_head(tmp_path: Path) -> None:
    git = _git(tmp_path / "one", "ref: refs/heads/main\n")
    (git / "packed-refs").write_text("# pack-refs\n" + "2" * 40 + " refs/heads/main\n")
    assert git_info(tmp_path / "one") == {"commit": "2" * 40, "branch": "main"}
    _git(tmp_path / "two", "3" * 40 + "\n")
    assert git_info(tmp_path / "two") == {"commit": "3" * 40, "branch": ""}
    assert provenance({}, start=tmp_path / "two") == {"commit": "3" * 40}


def test_no_git_no_provenance(tmp_path: Path) -> None:
    assert not any((folder / ".git").exists() for folder in (tmp_path, *tmp_path.parents))
    assert provenance({}, start=tmp_path) == {}

"""Every command that needs a dataset, a db or a judge takes it from ``arena.yaml``: the nearest
one up from the working directory, or ``--config FILE``. Flags still win, and so does
``$ARENA_DB_URL`` over the file's ``db``; a bad file is exit 2 naming the file and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.models import register_fake
from arena.storage import Store
from tests.support.scripted import answers_by_case, prefers_an_answer

pytestmark = pytest.mark.unit

ANSWERS = {"C-1": "It is 300.", "C-2": "I cannot send emails."}


def _project(root: Path, config: str) -> Path:
    """A project: arena.yaml (``config``), golden/cases.json with two cases, variants good
    and bad, and an empty subfolder to run commands from."""
    root.mkdir(parents=True, exist_ok=True)
    cases = [
        {
            "id": "C-1",
            "input": "What's 25% of 1200? #C-1",
            "category": "happy_path",
            "expected_output_contains": ["300"],
        },
        {"id": "C-2", "input": "Send an email #C-2", "category": "graceful_failure"},
    ]
    (root / "golden").mkdir()
    (root / "golden" / "cases.json").write_text(
        json.dumps({"name": "project-cases", "available_tools": [], "test_cases": cases})
    )
    for name in ("good", "bad"):
        register_fake(
            f"cfg-{name}", [answers_by_case(ANSWERS if name == "good" else None)], cycle=True
        )
        (root / f"{name}.yaml").write_text(
            f"name: {name}\nmodel: {{spec: 'fake:cfg-{name}'}}\ntools: []\n"
        )
    (root / "arena.yaml").write_text(config)
    (root / "sub").mkdir()
    return root


CONFIG = "db: sqlite:///project.db\nrun:\n  dataset: golden/cases.json\n"


def _run(project: Path, *flags: str) -> int:
    variants = [str(project / "good.yaml"), str(project / "bad.yaml")]
    return main(["run", "--variants", *variants, "--json", *flags])


@pytest.mark.system  # end to end: run, score, judge and rate
def test_run_score_and_ratings_use_the_nearest_arena_yaml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "project", CONFIG)
    monkeypatch.chdir(project / "sub")  # arena.yaml is one folder up; paths are its own
    register_fake("cfg-judge", [prefers_an_answer], cycle=True)
    assert _run(project) == 0
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    database = project / "project.db"
    assert database.is_file() and not (project / "sub" / "project.db").exists()
    store = Store(f"sqlite:///{database}")
    assert store.run_dataset(run_id).name == "project-cases"
    assert main(["score", "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["run_id"] == run_id
    assert {v["variant"]: v["pass_rate"] for v in scores["variants"]} == {"good": 1.0, "bad": 0.5}
    assert main(["judge", "--judge", "fake:cfg-judge/text", "--json"]) == 0
    capsys.readouterr()
    assert main(["ratings", "--json", "--bootstrap", "20"]) == 0
    board = json.loads(capsys.readouterr().out)
    assert board["run_id"] == run_id and board["entries"][0]["variant"] == "good"


def test_flags_win_over_arena_yaml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "project", CONFIG)
    monkeypatch.chdir(project)
    shipped = tmp_path / "other.json"
    shipped.write_text(
        (project / "golden" / "cases.json").read_text().replace("project-cases", "other")
    )
    other = tmp_path / "other.db"
    assert _run(project, "--dataset", str(shipped), "--db", f"sqlite:///{other}") == 0
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    assert not (project / "project.db").exists()
    assert Store(f"sqlite:///{other}").run_dataset(run_id).name == "other"
    assert main(["runs", "--json"]) == 0  # without --db: arena.yaml's
    assert json.loads(capsys.readouterr().out) == [] and (project / "project.db").is_file()


def test_arena_db_url_wins_over_the_file_and_config_names_another_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "project", CONFIG)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "arena.yaml").write_text("db: sqlite:///elsewhere.db\n")
    monkeypatch.chdir(project)
    assert _run(project, "--config", str(elsewhere / "arena.yaml")) == 0
    capsys.readouterr()
    assert (elsewhere / "elsewhere.db").is_file() and not (project / "project.db").exists()
    env = tmp_path / "env.db"
    monkeypatch.setenv("ARENA_DB_URL", f"sqlite:///{env}")
    assert main(["runs", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["runs", "--json", "--config", str(elsewhere / "arena.yaml")]) == 0
    assert json.loads(capsys.readouterr().out) == []  # the run is in elsewhere.db
    assert env.is_file() and not (project / "project.db").exists()


def test_the_judge_of_arena_yaml_judges_when_no_judge_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = CONFIG + "compare:\n  judge: fake:cfg-judge/text\n"
    project = _project(tmp_path / "project", config)
    monkeypatch.chdir(project)
    register_fake("cfg-judge", [prefers_an_answer], cycle=True)
    assert _run(project) == 0
    capsys.readouterr()
    assert main(["judge", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["judge"]["model"]["spec"] == "fake:cfg-judge"


@pytest.mark.parametrize(
    ("config", "field"),
    [
        ("db: sqlite:///x.db\nrun:\n  datasets: golden/cases.json\n", "run.datasets"),
        ("db: 'not a url'\n", "db"),
    ],
)
def test_a_bad_arena_yaml_is_exit_2_naming_the_file_and_field_before_anything_is_written(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    config: str,
    field: str,
) -> None:
    project = _project(tmp_path / "project", config)
    monkeypatch.chdir(project)
    assert _run(project) == 2
    err = capsys.readouterr().err
    assert "arena.yaml" in err and field in err
    assert sorted(p.name for p in project.iterdir()) == [
        "arena.yaml",
        "bad.yaml",
        "golden",
        "good.yaml",
        "sub",
    ]


def test_without_an_arena_yaml_the_shipped_dataset_and_variants_are_the_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "project", CONFIG)
    (project / "arena.yaml").unlink()
    monkeypatch.chdir(project)
    assert _run(project, "--cases", "HP-001") == 0  # a case of the shipped dataset
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    assert (project / "arena.db").is_file()
    assert Store("sqlite:///arena.db").run_dataset(run_id).name == "research-agent-golden"
    plan = ["plan", "--variants", "baseline", "small-model", "--cases", "HP-001", "--json"]
    assert main([*plan, "--no-measure"]) == 0  # names of the shipped variants
    assert [v["variant"] for v in json.loads(capsys.readouterr().out)["variants"]] == [
        "baseline",
        "small-model",
    ]


def test_run_finds_variant_names_in_the_variants_dir_of_arena_yaml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "project", CONFIG + "  variants_dir: .\n")
    monkeypatch.chdir(project / "sub")
    assert main(["run", "--variants", "good", "bad", "--cases", "C-1", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert sorted(r["variant"] for r in results) == ["bad", "good"]
    assert main(["run", "--variants", "nosuch", "--json"]) == 2
    assert "--variants" in capsys.readouterr().err


def test_the_gate_reads_the_nearest_arena_yaml_up_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.cli import build_parser
    from arena.cli.gate_flags import gate_config

    (tmp_path / "arena.yaml").write_text("rules:\n  max_drop: 0.2\n")
    (tmp_path / "a" / "b").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "a" / "b")
    config = gate_config(build_parser().parse_args(["gate"]), default_file=True)
    assert config.rules.max_drop == 0.2
    assert Path(str(config.source_file)).resolve() == (tmp_path / "arena.yaml").resolve()

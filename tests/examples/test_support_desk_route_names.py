"""Route fields that name a node the graph does not have are bad input wherever they would
run (issue 40, a new user's trial): `arena run` and `arena gate` refuse them before writing
anything (exit 2 naming the file, every case and field, and the graph's nodes), `golden lint
--variants` lists every unknown name of every case in one error, a route that contradicts
itself or expects nothing is refused at load, and lint's own `--dataset` wins over arena.yaml."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.errors import InputError
from arena.golden import load_dataset
from arena.models._fake_files import use_fake_scripts
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import load_variant

pytestmark = pytest.mark.unit

DESK = Path(__file__).parent / "support_desk"
DATASET = DESK / "golden" / "support.json"
SCRIPTS = DESK / "fake_models.yaml"
NODES = "audit, decline, router, support, support:agent, support:tools"


def _edited(tmp_path: Path, **fields: dict[str, Any]) -> Path:
    """The support desk's dataset with ``fields`` (case id -> fields) set, in ``tmp_path``."""
    doc = json.loads(DATASET.read_text(encoding="utf-8"))
    for case in doc["test_cases"]:
        case.update(fields.get(case["id"].replace("-", "_"), {}))
    path = tmp_path / "support.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _run(db_url: str, dataset: Path, variant: str, **options: Any) -> None:
    use_fake_scripts(SCRIPTS)
    run = RunOptions(progress=False, case_ids=["S-1", "S-2"], dataset_path=str(dataset), **options)
    run_suite(
        Store(db_url), load_dataset(dataset), [load_variant(DESK / "variants" / variant)], run
    )


@pytest.mark.parametrize(
    ("fields", "case", "field", "name"),
    [
        ({"forbidden_nodes": ["support:tool"]}, "S-1", "forbidden_nodes", "support:tool"),
        ({"forbidden_nodes": ["agent"]}, "S-1", "forbidden_nodes", "agent"),
        ({"expected_route": ["router", "Support"]}, "S-1", "expected_route", "Support"),
        (
            {"expected_graph_trajectory": {"steps": [["router", "support", "auditor"]]}},
            "S-1",
            "expected_graph_trajectory.steps",
            "auditor",
        ),
    ],
)
def test_a_run_refuses_a_node_its_graph_lacks_before_writing_anything(
    tmp_path: Path, db_url: str, fields: dict[str, Any], case: str, field: str, name: str
) -> None:
    bad = _edited(tmp_path, S_1=fields)
    with pytest.raises(InputError) as caught:
        _run(db_url, bad, "desk.yaml")
    assert str(caught.value) == (
        f"file {bad}, case {case}, field {field}: unknown node(s) {name}: the graph of desk "
        f"has {NODES}"
    )
    assert Store(db_url).runs() == []  # nothing half-written


def test_a_run_accepts_the_graphs_own_names_and_a_plain_runnable_is_not_checked(
    tmp_path: Path, db_url: str
) -> None:
    good = _edited(tmp_path, S_1={"forbidden_nodes": ["support:agent", "decline"]})
    _run(db_url, good, "desk.yaml")
    bad = _edited(tmp_path, S_1={"forbidden_nodes": ["support:tool"]})
    _run(db_url, bad, "desk-plain.yaml")  # no graph: no path recorded, nothing to check
    _run(db_url, bad, "desk.yaml", offered_tools_only=False)  # the gate's baseline side
    assert len(Store(db_url).runs()) == 3


def test_arena_run_exits_2_naming_the_file_case_field_and_nodes(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _edited(tmp_path, S_2={"forbidden_nodes": ["agent"]})
    variant = str(DESK / "variants" / "desk.yaml")
    argv = ["--fake-scripts", str(SCRIPTS), "run", "--variants", variant, "--dataset", str(bad)]
    assert main([*argv, "--cases", "S-2", "--db", db_url]) == 2
    err = capsys.readouterr().err
    assert f"file {bad}, case S-2, field forbidden_nodes: unknown node(s) agent: " in err
    assert f"the graph of desk has {NODES}" in err


@pytest.mark.system  # a whole gate on the support desk project
def test_the_gate_exits_2_on_a_misspelt_node_instead_of_passing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "desk"
    shutil.copytree(DESK, folder)
    (folder / "arena.yaml").write_text(
        "baseline: baselines/desk.json\ncandidate: desk\n"
        "run: {dataset: golden/support.json, variants_dir: variants, cases: [S-1, S-2]}\n"
        "compare: {judge: none}\nreport_dir: reports\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(folder)
    db = ["--db", f"sqlite:///{folder / 'arena.db'}"]
    arena = ["--fake-scripts", "fake_models.yaml"]
    run = ["run", "--variants", "variants/desk.yaml", "--cases", "S-1,S-2"]
    assert main([*arena, *run, *db]) == 0
    assert main([*arena, "baseline", "save", "desk", "--export", "baselines/desk.json", *db]) == 0
    assert main([*arena, "gate", *db]) == 0
    _edited(folder / "golden", S_1={"forbidden_nodes": ["support:tool"]})
    capsys.readouterr()
    assert main([*arena, "gate", *db]) == 2
    err = capsys.readouterr().err
    assert "case S-1, field forbidden_nodes: unknown node(s) support:tool" in err


def test_lint_lists_every_unknown_node_of_every_case_in_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _edited(
        tmp_path,
        S_1={"expected_route": ["router", "support:tool", "audit"], "forbidden_nodes": ["dec"]},
        S_2={"forbidden_nodes": ["Support", "agent"]},
    )
    variant = str(DESK / "variants" / "desk.yaml")
    lint = ["--fake-scripts", str(SCRIPTS), "golden", "lint", "--variants", variant]
    assert main([*lint, "--dataset", str(bad)]) == 2
    err = capsys.readouterr().err
    assert (
        f"file {bad}: unknown node(s) in 3 fields: case S-1, field expected_route: "
        "support:tool; case S-1, field forbidden_nodes: dec; case S-2, field forbidden_nodes: "
        f"Support, agent; the graph of desk has {NODES}"
    ) in err


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"expected_route": []}, "expected_route", "expected_route is empty"),
        (
            {"expected_route": ["router", "audit"], "forbidden_nodes": ["audit", "decline"]},
            "forbidden_nodes",
            "audit in both expected_route and forbidden_nodes",
        ),
        (
            {
                "conversation": {
                    "turns": [{"user": "and?"}],
                    "expect": [{"turn": 1, "expected_route": []}],
                }
            },
            "conversation.expect.0.expected_route",
            "expected_route is empty",
        ),
        (
            {
                "conversation": {
                    "turns": [{"user": "and?"}],
                    "expect": [
                        {"turn": 1, "expected_route": ["router"], "forbidden_nodes": ["router"]}
                    ],
                }
            },
            "conversation.expect.0",
            "router in both expected_route and forbidden_nodes",
        ),
    ],
)
def test_a_route_that_expects_nothing_or_contradicts_itself_is_refused_at_load(
    tmp_path: Path, fields: dict[str, Any], field: str, message: str
) -> None:
    bad = _edited(tmp_path, S_1=fields)
    with pytest.raises(InputError) as caught:
        load_dataset(bad)
    assert caught.value.case == "S-1" and caught.value.field == field
    assert message in caught.value.message


@pytest.mark.parametrize("spelling", [["--dataset"], []])
def test_lints_own_dataset_wins_over_arena_yaml(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    spelling: list[str],
) -> None:
    folder = tmp_path / "desk"
    shutil.copytree(DESK, folder)
    (folder / "arena.yaml").write_text(
        "baseline: baselines/desk.json\nrun: {dataset: golden/support.json}\n", encoding="utf-8"
    )
    _edited(folder / "variants", S_1={"forbidden_nodes": ["support:tool"]})
    (folder / "variants" / "support.json").rename(folder / "golden" / "other.json")
    monkeypatch.chdir(folder)
    lint = ["--fake-scripts", "fake_models.yaml", "golden", "lint"]
    assert main([*lint, *spelling, "golden/other.json", "--variants", "variants/desk.yaml"]) == 2
    err = capsys.readouterr().err
    assert "file golden/other.json, case S-1, field forbidden_nodes: unknown node(s)" in err
    assert main([*lint, "--variants", "variants/desk.yaml"]) == 0  # arena.yaml's dataset
    assert "support-desk 1.0.0" in capsys.readouterr().out

"""Bring-your-own agents with tools of their own: calls are checked against the agent's own
tools (never the Research Agent's), ``tools:`` selects among the tools a factory declares,
``params:`` reach it and its version, and a bad ``tools:``/``params:`` is refused (exit 2)
before any model call; a failure inside the agent is that result's error, with its traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import InputError
from arena.golden import GoldenDataset
from arena.models import register_fake
from arena.runner import RunOptions, run_suite
from arena.storage import Store
from arena.variants.variant import load_variant

pytestmark = pytest.mark.unit

OWN = "tests.agents.own_agents"
REPO = Path(__file__).resolve().parents[2]


def _trip_script(name: str, tool: str = "convert_currency") -> None:
    args = {"amount": 10, "currency": "USD"}
    if tool == "distance_km":
        args = {"origin": "Rome", "destination": "Milan"}
    register_fake(
        name,
        [
            lambda m: (
                {"tool": tool, "args": args}
                if not any(type(x).__name__ == "ToolMessage" for x in m)
                else f"Done: {m[-1].content}"
            )
        ],
        cycle=True,
    )


def _variant(tmp_path: Path, agent: str, script: str, extra: str = "", name: str = "v") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"name: {name}\nagent: '{agent}'\nmodel: {{spec: 'fake:{script}'}}\n{extra}")
    return path


def _dataset(tmp_path: Path, inputs: list[str] | None = None) -> Path:
    cases = [
        {"id": f"T-{i}", "input": text, "category": "happy_path"}
        for i, text in enumerate(inputs or ["10 euros in dollars?"], start=1)
    ]
    path = tmp_path / "golden.json"
    path.write_text(
        json.dumps({"name": "trips", "available_tools": ["convert_currency"], "test_cases": cases})
    )
    return path


def _golden(path: Path) -> GoldenDataset:
    from arena.golden import load_dataset

    return load_dataset(path)


def test_calls_to_a_create_react_agents_own_tools_are_not_errors(
    tmp_path: Path, store: Store
) -> None:
    _trip_script("own-react")
    variant = load_variant(_variant(tmp_path, f"{OWN}:trip_react", "own-react"))
    report = run_suite(store, _golden(_dataset(tmp_path)), [variant], RunOptions(progress=False))
    (result,) = report.results
    assert result.error is None
    (step,) = result.steps
    assert step.tool == "convert_currency" and "11.00 USD" in step.observation
    assert step.error is None  # was "convert_currency is not an available tool"


def test_a_call_to_a_tool_the_agent_lacks_is_still_an_error(tmp_path: Path, store: Store) -> None:
    _trip_script("own-missing", tool="distance_km")
    path = _variant(tmp_path, f"{OWN}:trip_declared", "own-missing", "tools: [convert_currency]\n")
    report = run_suite(
        store, _golden(_dataset(tmp_path)), [load_variant(path)], RunOptions(progress=False)
    )
    (step,) = report.results[0].steps
    assert step.tool == "distance_km" and step.unavailable
    assert step.error and "not one of this variant's tools (convert_currency)" in step.error
    assert "not a valid tool" in step.observation  # what the agent's ToolNode answered


def test_declared_tools_are_selected_by_the_variant_and_params_reach_the_factory(
    tmp_path: Path, store: Store
) -> None:
    register_fake("own-echo", ["unused"], cycle=True)
    extra = "tools: [distance_km]\nparams: {currency: JPY, budget: 7}\n"
    variant = load_variant(_variant(tmp_path, f"{OWN}:trip_params_echo", "own-echo", extra))
    report = run_suite(store, _golden(_dataset(tmp_path)), [variant], RunOptions(progress=False))
    assert report.results[0].output == "currency=JPY budget=7 tools=distance_km"


def test_params_are_part_of_the_version_and_absent_params_change_nothing(tmp_path: Path) -> None:
    base = load_variant(_variant(tmp_path, f"{OWN}:trip_declared", "echo", name="a"))
    same = load_variant(_variant(tmp_path, f"{OWN}:trip_declared", "echo", "params: {}\n", "a"))
    other = load_variant(
        _variant(tmp_path, f"{OWN}:trip_declared", "echo", "params: {budget: 5}\n", "a")
    )
    assert base.version_hash == same.version_hash != other.version_hash
    assert "params" not in base.model_dump()
    committed = json.loads((REPO / "baselines" / "baseline.json").read_text())
    shipped = load_variant(REPO / "data" / "variants" / "baseline.yaml")
    assert shipped.version_hash == committed["variant_hash"]  # existing versions unchanged


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ("tools: [convert_currency, teleport]\n", "field tools", "unknown tool(s) teleport"),
        ("params: {currency: 3}\n", "field params.currency", "must be a string, got 3"),
        ("params: {colour: red}\n", "field params.colour", "Extra inputs"),
        ("params: {budget: lots}\n", "field params.budget", 'must be an integer, got "lots"'),
    ],
)
def test_bad_tools_or_params_are_refused_when_the_variant_loads(
    tmp_path: Path, extra: str, field: str, message: str
) -> None:
    path = _variant(tmp_path, f"{OWN}:trip_declared", "echo", extra)
    with pytest.raises(InputError) as info:
        load_variant(path)
    text = str(info.value)
    assert f"file {path}" in text and field in text and message in text, text


@pytest.mark.parametrize("tools", ["[calculate, search_web]", "[convert_currency]", "[]"])
def test_tools_on_a_factory_that_declares_none_are_refused(tmp_path: Path, tools: str) -> None:
    # on main the built-in agent's tools were accepted, and the factory received them
    path = _variant(tmp_path, f"{OWN}:trip_react", "echo", f"tools: {tools}\n")
    with pytest.raises(InputError, match=r"field tools: .* declares no tools.*@agent_factory"):
        load_variant(path)


@pytest.mark.parametrize(
    ("agent", "roles", "message"),
    [
        (
            "trip_routed",
            "routr",
            "unknown role(s) routr; tests.agents.own_agents:trip_routed declares router",
        ),
        (
            "trip_declared",
            "router",
            "unknown role(s) router; tests.agents.own_agents:"
            "trip_declared declares none: declare them with @agent_factory(roles=[...])",
        ),
        ("trip_react", "router", "declares none"),
    ],
)
def test_roles_a_factory_does_not_declare_are_refused(
    tmp_path: Path, agent: str, roles: str, message: str
) -> None:
    # on main any roles: key was accepted and the factory quietly used the main model
    extra = f"roles:\n  {roles}: {{spec: 'fake:echo'}}\n"
    path = _variant(tmp_path, f"{OWN}:{agent}", "echo", extra)
    with pytest.raises(InputError) as info:
        load_variant(path)
    text = str(info.value)
    assert f"file {path}" in text and "field roles" in text and message in text, text


def test_a_declared_role_gets_its_own_model(tmp_path: Path, store: Store) -> None:
    register_fake("own-main", ["from the main model"], cycle=True)
    register_fake("own-router", ["from the router model"], cycle=True)
    extra = "roles:\n  router: {spec: 'fake:own-router'}\n"
    variant = load_variant(_variant(tmp_path, f"{OWN}:trip_routed", "own-main", extra))
    report = run_suite(store, _golden(_dataset(tmp_path)), [variant], RunOptions(progress=False))
    assert report.results[0].output == "router: from the router model"


def test_roles_must_be_declared_as_a_list_of_distinct_names() -> None:
    from arena.agents import agent_factory

    with pytest.raises(ValueError, match="list of role names"):
        agent_factory(roles="router")
    with pytest.raises(ValueError, match=r"role\(s\) declared twice: router"):
        agent_factory(roles=["router", "writer", "router"])


def test_params_for_a_builtin_agent_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text("name: v\nmodel: {spec: 'fake:echo'}\nparams: {x: 1}\n")
    with pytest.raises(InputError, match="field params"):
        load_variant(path)


def _gate_project(tmp_path: Path, bad: str) -> list[str]:
    _trip_script("own-gate")
    dataset = _dataset(tmp_path)
    variants = tmp_path / "variants"
    variants.mkdir()
    _variant(variants, f"{OWN}:trip_declared", "own-gate", name="good")
    _variant(variants, f"{OWN}:trip_declared", "own-gate", bad, name="bad")
    (tmp_path / "arena.yaml").write_text(
        f"run: {{dataset: {dataset}, variants_dir: {variants}}}\ncompare: {{judge: none}}\n"
    )
    return [str(variants / "good.yaml"), str(variants / "bad.yaml"), str(dataset)]


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ("tools: [teleport]\n", "field tools"),
        ("params: {budget: lots}\n", "field params.budget"),
        ("roles:\n  routr: {spec: 'fake:own-gate'}\n", "field roles"),
    ],
)
def test_plan_run_and_gate_refuse_a_bad_variant_before_any_model_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str, field: str
) -> None:
    from arena.models._fake import fake_script

    good, bad_file, dataset = _gate_project(tmp_path, bad)
    db = tmp_path / "arena.db"
    config = str(tmp_path / "arena.yaml")
    for argv in (
        ["plan", "--variants", good, bad_file, "--dataset", dataset],
        ["run", "--variants", good, bad_file, "--dataset", dataset],
        ["gate", "--config", config, "--baseline", "good", "--candidate", "bad"],
    ):
        assert main([*argv, "--db", f"sqlite:///{db}"]) == 2, argv
        err = capsys.readouterr().err
        assert f"file {bad_file}" in err and field in err, (argv, err)
        assert argv[0] == "gate" or not db.exists()  # plan and run wrote nothing
    assert fake_script("own-gate").calls == []


def test_a_failure_inside_the_agent_is_that_results_error_with_its_traceback(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    register_fake("own-fails", ["unused"], cycle=True)
    path = _variant(tmp_path, f"{OWN}:fails_on_paris", "own-fails")
    dataset = _dataset(tmp_path, ["Trip to Rome", "Trip to Paris", "Trip to Oslo"])
    assert main(["run", "--variants", str(path), "--dataset", str(dataset), "--db", db_url]) == 0
    capsys.readouterr()
    store = Store(db_url)
    (run,) = store.runs()
    assert run.status == "finished"
    results = {r.case_id: r for r in store.results(run.id)}
    assert results["T-1"].error is None and results["T-3"].error is None
    error = results["T-2"].error or ""
    assert error.startswith("KeyError: 'Paris'")
    assert "Traceback (most recent call last)" in error and "own_agents.py" in error
    assert "_lookup_city" in error
    assert main(["show", str(results["T-2"].id), "--db", db_url]) == 0
    shown = capsys.readouterr().out
    assert "_lookup_city" in shown and "return cities[name]" in shown
    assert main(["score", "--json", "--db", db_url]) == 0
    (scored,) = json.loads(capsys.readouterr().out)["variants"]
    reasons = {c["case_id"]: c["fail_reasons"] for c in scored["cases"]}
    # reports keep one line
    assert [r["text"] for r in reasons["T-2"]] == ["run error: KeyError: 'Paris'"]

"""`--max-cost USD` stops `arena run` and `arena judge` within one task of the limit, keeps
what finished, and a rerun resumes exactly the rest; `--dry-run` writes nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from arena.plan import Budget
from arena.storage import Store
from tests.faults.scenario import cli, cli_json
from tests.plan.helpers import NAMES, register_models, write_inputs

pytestmark = pytest.mark.unit


def _run_args(data: Path, variants: list[Path], db: str, *extra: str) -> list[str]:
    return [
        "run",
        "--variants",
        *map(str, variants),
        "--dataset",
        str(data),
        "--repeats",
        "2",
        "--concurrency",
        "4",
        "--db",
        db,
        "--json",
        *extra,
    ]


def _judge_file(root: Path) -> Path:
    from arena.models import register_fake

    register_fake("judge", ["A is better. [[A>B]]"], cycle=True)
    path = root / "judge.yaml"
    path.write_text(
        "model: {spec: 'fake:judge', price_input_per_mtok: 1000, "
        "price_output_per_mtok: 1000}\nmode: text\n"
    )
    return path


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_max_cost_stops_within_one_task_and_the_rerun_resumes(tmp_path: Path) -> None:
    register_models()
    data, variants = write_inputs(tmp_path)
    reference, _ = cli_json(_run_args(data, variants, f"sqlite:///{tmp_path / 'ref.db'}"))
    costs = {(r["variant"], r["case_id"], r["repeat"]): r["cost_usd"] for r in reference["results"]}
    total, biggest = sum(costs.values()), max(costs.values())
    limit = total * 0.4
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    stopped, printed = cli_json(_run_args(data, variants, db, "--max-cost", f"{limit:.6f}"))
    budget = stopped["budget"]
    assert budget["stopped"] and budget["not_started"] > 0
    spent = sum(r["cost_usd"] for r in stopped["results"])
    assert spent == pytest.approx(budget["spent_usd"], abs=1e-6)
    assert limit - biggest < spent <= limit + 1e-9  # within one task of the limit
    assert "stopped by --max-cost" in printed
    store = Store(db)
    run = store.run(stopped["run_id"])
    assert run.status == "stopped" and run.results == len(stopped["results"]) < len(costs)
    kept = {r["id"]: r["output"] for r in stopped["results"]}

    again, _ = cli_json(_run_args(data, variants, db))
    assert again["run_id"] == run.id and len(again["results"]) == len(costs)
    assert again["reused_results"] == len(kept)
    assert again["model_calls"] == len(costs) - len(kept)  # one call per missing task
    assert {r["id"]: r["output"] for r in again["results"] if r["id"] in kept} == kept
    assert store.run(run.id).status == "finished"


def test_max_cost_zero_runs_nothing_and_a_generous_limit_runs_everything(tmp_path: Path) -> None:
    register_models()
    data, variants = write_inputs(tmp_path)
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    nothing, _ = cli_json(_run_args(data, variants, db, "--max-cost", "0"))
    assert nothing["results"] == [] and nothing["budget"]["stopped"]
    everything, _ = cli_json(_run_args(data, variants, db, "--max-cost", "1000"))
    assert len(everything["results"]) == len(NAMES) * 4 * 2
    assert not everything["budget"]["stopped"]


@pytest.mark.system  # end to end (runs, judging, storage): too slow for a unit test
def test_judge_max_cost_stops_and_the_rerun_judges_the_rest(tmp_path: Path) -> None:
    register_models()
    data, variants = write_inputs(tmp_path)
    db = f"sqlite:///{tmp_path / 'arena.db'}"
    cli_json(_run_args(data, variants, db))
    judge = _judge_file(tmp_path)
    args = ["judge", "--judge", str(judge), "--concurrency", "1", "--db", db, "--json"]
    code, out, _ = cli([*args, "--dry-run"])
    plan = json.loads(out)
    assert code == 0 and plan["to_send"] > 2
    per_pair = 2 * plan["per_call"]["cost_usd"]
    limit = 2.5 * per_pair
    first, _ = cli_json([*args, "--max-cost", f"{limit:.8f}"])
    spent = first["budget"]["spent_usd"]
    assert first["budget"]["stopped"] and limit - per_pair < spent <= limit
    assert first["model_calls"] == 4  # two pairs' worth of requests (cached ones are free)
    assert spent == pytest.approx(4 * plan["per_call"]["cost_usd"])
    rest, _ = cli_json(args)
    assert first["model_calls"] + rest["model_calls"] == plan["to_send"]
    assert len(Store(db).battles(first["run_id"])) == plan["pairs"]


def test_dry_run_writes_nothing_and_calls_nothing(tmp_path: Path) -> None:
    from arena.models._fake import fake_script

    register_models()
    data, variants = write_inputs(tmp_path)
    db_file = tmp_path / "arena.db"
    code, out, err = cli(_run_args(data, variants, f"sqlite:///{db_file}", "--dry-run"))
    assert code == 0, err
    plan = json.loads(out)
    assert (plan["tasks"], plan["stored"], plan["to_run"]) == (24, 0, 24)
    assert not db_file.exists()
    assert all(fake_script(name).calls == [] for name in NAMES)  # no model was asked
    code, out, _ = cli(
        [
            "plan",
            "--variants",
            *map(str, variants),
            "--dataset",
            str(data),
            "--repeats",
            "2",
            "--db",
            f"sqlite:///{db_file}",
        ]
    )
    assert code == 0 and "24 agent tasks: 0 stored, 24 to run" in out
    assert not db_file.exists()


def test_bad_max_cost_is_bad_input(tmp_path: Path) -> None:
    register_models()
    data, variants = write_inputs(tmp_path)
    db_file = tmp_path / "arena.db"
    code, _, err = cli(_run_args(data, variants, f"sqlite:///{db_file}", "--max-cost", "-1"))
    assert code == 2 and "--max-cost" in err and not db_file.exists()


def test_unmeasured_work_is_admitted_one_at_a_time() -> None:
    async def scenario() -> list[str]:
        budget = Budget(1.0, {"new": None, "known": 0.3})
        events: list[str] = []
        first = await budget.admit("new")
        waiting = asyncio.ensure_future(budget.admit("new"))
        await asyncio.sleep(0.01)
        events.append(f"second waits: {not waiting.done()}")
        assert first is not None
        await budget.settle("new", first, 0.25, measured=True)
        events.append(f"then admitted at {await waiting}")
        assert await budget.admit("known") == 0.3  # 0.25 spent + 0.25 + 0.3 reserved
        events.append(f"refused: {await budget.admit('known') is None}, {budget.stopped}")
        events.append(f"closed: {await budget.admit('new') is None}")
        return events

    assert asyncio.run(scenario()) == [
        "second waits: True",
        "then admitted at 0.25",
        "refused: True, True",
        "closed: True",
    ]

"""A limit or rule naming a category the dataset lacks is bad input (exit 2) in `arena check`
and `arena gate` alike, naming the flag or the arena.yaml field (issue 25, build point 4).

The dataset declares its own categories (``billing``, ``shipping``): ``happy_path`` is not one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import InputError
from arena.gate._dataset_fit import check_categories
from arena.golden import load_dataset
from arena.models import register_fake
from arena.project._config import GateConfig, config_from_dict
from tests.support.cli_args import run_argv

pytestmark = pytest.mark.unit


class Shop:
    """A dataset of its own categories, two variants and a run of them in ``db``."""

    def __init__(self, root: Path, db: str) -> None:
        self.root, self.db = root, db
        cases = [
            {"id": "B-1", "input": "refund?", "category": "billing", "tier": "critical"},
            {"id": "S-1", "input": "parcel?", "category": "shipping", "tier": "critical"},
        ]
        for case in cases:
            case["expected_output_contains"] = ["ok"]
        self.dataset = root / "golden.json"
        self.dataset.write_text(
            json.dumps(
                {
                    "name": "shop",
                    "categories": ["billing", "shipping"],
                    "available_tools": [],
                    "test_cases": cases,
                }
            )
        )
        register_fake("shop-model", ["ok, done"], cycle=True)
        variants = root / "variants"
        variants.mkdir()
        for name in ("base", "cand"):
            (variants / f"{name}.yaml").write_text(
                f"name: {name}\nmodel: {{spec: 'fake:shop-model'}}\ntools: []\n"
            )
        self.variants = variants

    def run(self) -> None:
        files = [self.variants / "base.yaml", self.variants / "cand.yaml"]
        assert main(run_argv(files, self.dataset, self.db)) == 0
        assert main(["baseline", "save", "base", "--db", self.db]) == 0

    def config(self, text: str) -> str:
        path = self.root / "arena.yaml"
        path.write_text(
            "run: {dataset: golden.json, variants_dir: variants, tier: all}\n"
            f"compare: {{judge: none}}\n{text}"
        )
        return str(path)

    def check(self, *args: str) -> int:
        return main(["check", "--candidate", "cand", "--baseline", "base", *args, "--db", self.db])

    def gate(self, config: str, *args: str) -> int:
        argv = ["gate", "--config", config, "--baseline", "base", "--candidate", "cand"]
        return main([*argv, "--report-dir", str(self.root / "reports"), *args, "--db", self.db])


@pytest.fixture
def shop(tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]) -> Shop:
    project = Shop(tmp_path, db_url)
    project.run()
    capsys.readouterr()
    return project


def test_check_and_gate_refuse_an_unknown_category_flag_alike(
    shop: Shop, capsys: pytest.CaptureFixture[str]
) -> None:
    config = shop.config("")
    flag = ["--min-category-pass-rate", "happy_path=1.0"]
    # on main `arena check` exited 1, a failed limit ("no counted case was run")
    for command in (lambda: shop.check(*flag), lambda: shop.gate(config, *flag)):
        code, err = command(), capsys.readouterr().err
        assert code == 2, err
        assert "field --min-category-pass-rate: unknown category(ies) happy_path" in err
        assert "the dataset shop has billing, shipping" in err
    assert shop.check("--min-category-pass-rate", "billing=1.0") == 0  # a known one holds


def test_check_and_gate_refuse_an_unknown_category_in_arena_yaml_naming_the_file(
    shop: Shop, capsys: pytest.CaptureFixture[str]
) -> None:
    config = shop.config("absolute:\n  min_category_pass_rate: {happy_path: 1.0}\n")
    for command in (lambda: shop.check("--config", config), lambda: shop.gate(config)):
        code, err = command(), capsys.readouterr().err
        assert code == 2, err
        assert f"file {config}, field absolute.min_category_pass_rate" in err
        assert "unknown category(ies) happy_path" in err


def test_a_happy_path_rule_on_a_dataset_without_happy_paths_is_refused_when_asked_for(
    shop: Shop, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = "suite_drop,happy_path_fail"
    config = shop.config(f"rules:\n  block: [{listed}]\n")
    for command, field in (
        (lambda: shop.check("--block", listed), "field --block"),
        (lambda: shop.check("--config", config), f"file {config}, field rules.block"),
        (lambda: shop.gate(config), f"file {config}, field rules.block"),
    ):
        code, err = command(), capsys.readouterr().err
        assert code == 2, err
        assert field in err and "happy_path_fail blocks on happy_path cases" in err
    # the default rules name it too, but were not asked for: they stay accepted
    assert shop.check() == 0
    assert shop.check("--config", shop.config("")) == 0


def test_origin_names_the_flag_else_the_file() -> None:
    dataset = load_dataset(
        Path(__file__).resolve().parents[2] / "examples/own-agent/golden/kitchen.json"
    )
    config = config_from_dict(
        {"absolute": {"min_category_pass_rate": {"happy_path": 0.5}}}, source="a.yaml"
    )
    with pytest.raises(InputError) as info:
        check_categories(config, dataset)
    assert (info.value.file, info.value.field) == ("a.yaml", "absolute.min_category_pass_rate")
    check_categories(GateConfig(), dataset)  # the default rules and no limits: nothing refused

"""The user model option: where it is set (flags, arena.yaml), and what it fingerprints."""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

import pytest

from arena.cli.gate_flags import add_gate_run_flags, add_limit_flags, gate_config
from arena.errors import InputError
from arena.golden import GoldenCase, GoldenDataset, case_hash, dataset_hash
from arena.models import ModelConfig
from arena.project._config import config_from_dict
from arena.runner._tasks import run_key
from arena.runner._user_model import DEFAULT_USER_MODEL, task_case_hash, user_model_config
from arena.variants.variant import Variant

pytestmark = pytest.mark.unit

BASE = {"id": "C-1", "input": "I want a refund.", "category": "happy_path", "tier": "critical"}
USER = {"persona": "a customer", "goal": "a refund"}


def _case(**fields: Any) -> GoldenCase:
    return GoldenCase.model_validate({**BASE, **fields})


def test_only_a_simulated_case_folds_the_user_model_into_its_hash() -> None:
    one = _case()
    scripted = _case(conversation={"turns": [{"user": "Order 4471."}]})
    simulated = _case(conversation={"user": USER})
    a, b = ModelConfig(spec="fake:a"), ModelConfig(spec="fake:b")
    for case in (one, scripted):
        assert task_case_hash(case, a) == task_case_hash(case) == case_hash(case)
    assert len({task_case_hash(simulated, a), task_case_hash(simulated, b)}) == 2
    assert task_case_hash(simulated, a) != case_hash(simulated)
    other_persona = _case(conversation={"user": {**USER, "persona": "an angry customer"}})
    assert task_case_hash(other_persona, a) != task_case_hash(simulated, a)
    own = _case(conversation={"user": {**USER, "model": "fake:own"}})
    assert task_case_hash(own, a) == task_case_hash(own, b)  # its own model wins


def test_the_user_model_resolves_case_then_run_then_default() -> None:
    run = ModelConfig(spec="fake:run")
    own = _case(conversation={"user": {**USER, "model": "fake:own"}})
    plain = _case(conversation={"user": USER})
    assert user_model_config(own, run) == ModelConfig(spec="fake:own")
    assert user_model_config(plain, run) == run
    assert user_model_config(plain, None) == ModelConfig(spec=DEFAULT_USER_MODEL)
    assert user_model_config(_case(), run) is None


def test_a_run_without_simulated_users_keeps_its_key() -> None:
    dataset = GoldenDataset.model_validate(
        {"name": "d", "available_tools": [], "test_cases": [BASE]}
    )
    variant = Variant.model_validate({"name": "v", "model": {"spec": "fake:x"}})
    old = hashlib.sha256(
        json.dumps(
            {
                "dataset": dataset_hash(dataset),
                "variants": [variant.version_hash],
                "cases": ["C-1"],
                "repeats": 1,
            },
            sort_keys=True,
        ).encode()
    ).hexdigest()[:32]
    cases = dataset.test_cases
    assert run_key(dataset, [variant], cases, 1, ModelConfig(spec="fake:a")) == old


def _gate_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_limit_flags(parser)
    add_gate_run_flags(parser)
    return parser.parse_args(list(argv))


def test_the_gate_takes_the_user_model_from_its_flag_or_arena_yaml() -> None:
    assert gate_config(_gate_args("--user-model", "fake:u")).run.user_model == "fake:u"
    assert config_from_dict({"run": {"user_model": "fake:y"}}).run.user_model == "fake:y"
    with pytest.raises(InputError) as caught:
        config_from_dict({"run": {"user_model": "nope"}})
    assert caught.value.field == "run.user_model"
    with pytest.raises(InputError) as flagged:
        gate_config(_gate_args("--user-model", "nope"))
    assert flagged.value.field == "--user-model"

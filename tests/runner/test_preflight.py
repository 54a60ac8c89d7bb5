"""Bad run options and missing API keys fail before any call or write (exit 2 in the CLI)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import main
from arena.errors import InputError
from arena.golden import GoldenDataset
from arena.runner import RunOptions, check_run, run_suite
from arena.storage import Store
from arena.variants.variant import Variant
from tests.support.cli_args import run_argv

pytestmark = pytest.mark.unit


def _dataset() -> GoldenDataset:
    return GoldenDataset.model_validate(
        {
            "name": "t",
            "available_tools": ["calculate"],
            "test_cases": [{"id": "C-1", "input": "hi", "category": "happy_path"}],
        }
    )


def _files(tmp_path: Path, model: str) -> tuple[Path, Path]:
    variant = tmp_path / "v.yaml"
    variant.write_text(f"name: v\nmodel: {model}\n")
    dataset = tmp_path / "d.json"
    dataset.write_text(_dataset().model_dump_json())
    return variant, dataset


@pytest.mark.parametrize("timeout", ["-1", "0", "nan", "-inf"])
def test_bad_timeout_is_exit_2_naming_the_flag(
    tmp_path: Path, timeout: str, capsys: pytest.CaptureFixture[str]
) -> None:
    variant, dataset = _files(tmp_path, "{spec: 'fake:echo'}")
    db = tmp_path / "arena.db"
    code = main(run_argv(variant, dataset, f"sqlite:///{db}", f"--timeout={timeout}"))
    err = capsys.readouterr().err
    assert code == 2 and "--timeout" in err and "positive" in err and "Traceback" not in err
    assert not db.exists()


def test_library_rejects_a_bad_timeout_before_writing(store: Store) -> None:
    variant = Variant.model_validate({"name": "v", "model": {"spec": "fake:echo"}})
    with pytest.raises(InputError, match="field case_timeout_s: must be a positive"):
        run_suite(store, _dataset(), [variant], RunOptions(case_timeout_s=0, progress=False))
    assert store.runs() == []


def test_unset_api_key_fails_before_any_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("PREFLIGHT_KEY", raising=False)
    # Port 9 (discard): a call, if one were made, would fail as a connection error per case.
    variant, dataset = _files(
        tmp_path,
        "{spec: 'openai:m', api_key_env: PREFLIGHT_KEY, base_url: 'http://127.0.0.1:9/v1'}",
    )
    db = tmp_path / "arena.db"
    code = main(run_argv(variant, dataset, f"sqlite:///{db}", "--json"))
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert "variant v" in captured.err and "PREFLIGHT_KEY is not set" in captured.err
    assert f"file {variant}" in captured.err
    assert "field model.api_key_env" in captured.err
    assert not db.exists()


def test_every_variant_is_checked_at_suite_start(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PREFLIGHT_KEY2", raising=False)
    good = Variant.model_validate({"name": "good", "model": {"spec": "fake:echo"}})
    bad = Variant.model_validate(
        {
            "name": "bad",
            "model": {
                "spec": "openai:m",
                "api_key_env": "PREFLIGHT_KEY2",
                "base_url": "http://127.0.0.1:9/v1",
            },
        }
    )
    with pytest.raises(InputError, match=r"variant bad: .*PREFLIGHT_KEY2"):
        run_suite(store, _dataset(), [good, bad], RunOptions(progress=False))
    assert store.runs() == []
    monkeypatch.setenv("PREFLIGHT_KEY2", "sk-preflight-0123456789")
    check_run([good, bad], RunOptions())


def test_role_models_are_checked_too(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PREFLIGHT_ROLE_KEY", raising=False)
    variant = Variant.model_validate(
        {
            "name": "roles",
            "agent": "supervisor",
            "model": {"spec": "fake:echo"},
            "roles": {
                "writer": {
                    "spec": "openai:m",
                    "api_key_env": "PREFLIGHT_ROLE_KEY",
                    "base_url": "http://127.0.0.1:9/v1",
                }
            },
        }
    )
    with pytest.raises(InputError, match=r"field roles\.writer\.api_key_env") as caught:
        run_suite(store, _dataset(), [variant], RunOptions(progress=False))
    assert "PREFLIGHT_ROLE_KEY is not set" in str(caught.value)
    assert store.runs() == []

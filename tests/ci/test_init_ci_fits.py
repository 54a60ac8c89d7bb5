"""`arena init-ci` fits the repository it is run in (issue 25, problem 7): the pull-request
trigger covers the agent's own package and every file the variants and datasets name, hosted
models get their API-key secret in the gate step (and nowhere else), and `arena.yaml` runs the
repository's own dataset and variants."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from arena.cli import main
from arena.project._config import load_config

pytestmark = pytest.mark.unit

SECRET_VALUE = "sk-not-to-be-printed-123"


def _repo(root: Path, package: str = "shopbot") -> Path:
    """A team's repository: its agent package, golden set, variants (one on a hosted model)."""
    (root / package).mkdir(parents=True)
    (root / package / "__init__.py").write_text("")
    (root / package / "agent.py").write_text("def build(ctx):\n    return None\n")
    (root / "golden").mkdir()
    case = {"id": "S-1", "input": "Where is order A-1?", "category": "happy_path"}
    (root / "golden" / "support.json").write_text(
        json.dumps({"name": "support", "available_tools": [], "test_cases": [case]})
    )
    (root / "variants" / "prompts").mkdir(parents=True)
    (root / "variants" / "prompts" / "base.md").write_text("You help customers.")
    top = package.split("/")[-1]
    (root / "variants" / "baseline.yaml").write_text(
        f"name: baseline\nagent: {top}.agent:build\nsystem_prompt_file: prompts/base.md\n"
        "model: {spec: 'openai:gpt-4o-mini', api_key_env: SHOP_OPENAI_KEY}\n"
    )
    (root / "variants" / "local.yaml").write_text(
        f"name: local-model\nagent: {top}.agent:build\n"
        "model: {spec: 'local:qwen2.5-coder-1.5b'}\n"
        "roles:\n  router: {spec: 'openai:gpt-4o'}\n"  # no api_key_env: OPENAI_API_KEY
    )
    (root / "pyproject.toml").write_text("[project]\nname = 'shopbot'\n")
    return root


def _workflow(root: Path, name: str = "arena-gate.yml") -> dict[Any, Any]:
    doc = yaml.safe_load((root / ".github" / "workflows" / name).read_text())
    doc["on"] = doc.pop(True, doc.get("on"))
    return doc


def _step(doc: dict[Any, Any], job: str, name: str) -> dict[str, Any]:
    return next(s for s in doc["jobs"][job]["steps"] if s.get("name") == name)


def test_the_trigger_paths_cover_the_agent_package_and_every_named_file(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    assert main(["init-ci", "--dir", str(root)]) == 0
    paths = _workflow(root)["on"]["pull_request"]["paths"]
    assert "shopbot/**" in paths  # a pull request that changes only agent code runs the gate
    assert {"golden/support.json", "variants/**", "arena.yaml", "pyproject.toml"} <= set(paths)
    assert {"baselines/**", ".github/workflows/arena-*.yml"} <= set(paths)
    assert "data/**" not in paths and "prompts/**" not in paths  # the repository's, not guesses


def test_a_src_layout_package_and_a_fake_scripts_file_trigger_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repo(tmp_path, package="src/shopbot")
    (root / "fake_models.yaml").write_text("scripts: {}\n")
    monkeypatch.setenv("ARENA_FAKE_SCRIPTS", str(root / "fake_models.yaml"))
    assert main(["init-ci", "--dir", str(root)]) == 0
    paths = _workflow(root)["on"]["pull_request"]["paths"]
    assert "src/shopbot/**" in paths and "fake_models.yaml" in paths


def test_hosted_models_get_their_key_secret_in_the_gate_step_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SHOP_OPENAI_KEY", SECRET_VALUE)
    root = _repo(tmp_path)
    assert main(["init-ci", "--dir", str(root)]) == 0
    expected = {
        "SHOP_OPENAI_KEY": "${{ secrets.SHOP_OPENAI_KEY }}",
        "OPENAI_API_KEY": "${{ secrets.OPENAI_API_KEY }}",
    }
    gate = _workflow(root)
    assert _step(gate, "gate", "Gate")["env"] == expected
    assert not any("secrets." in str(v) for v in gate["env"].values())  # not workflow-wide
    others = [s for s in gate["jobs"]["gate"]["steps"] if s.get("name") != "Gate"]
    assert "secrets." not in json.dumps(others)
    nightly = _workflow(root, "arena-nightly.yml")
    assert _step(nightly, "nightly", "Whole golden set with repeats")["env"] == expected
    said = capsys.readouterr().out
    assert "SHOP_OPENAI_KEY, OPENAI_API_KEY" in said and "Settings > Secrets" in said
    written = [p.read_text() for p in root.rglob("*") if p.is_file()]
    assert SECRET_VALUE not in said and not any(SECRET_VALUE in text for text in written)


def test_local_models_need_no_secret_and_the_flag_overrides(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    for file in (root / "variants").glob("*.yaml"):
        file.write_text(
            f"name: {file.stem}\nagent: shopbot.agent:build\nmodel: {{spec: 'local:x'}}\n"
        )
    assert main(["init-ci", "--dir", str(root)]) == 0
    assert "env" not in _step(_workflow(root), "gate", "Gate")
    assert main(["init-ci", "--dir", str(root), "--force", "--secrets", "MY_KEY"]) == 0
    assert _step(_workflow(root), "gate", "Gate")["env"] == {"MY_KEY": "${{ secrets.MY_KEY }}"}


def test_arena_yaml_runs_the_repositorys_own_dataset_and_variants(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    assert main(["init-ci", "--dir", str(root)]) == 0
    config = load_config(root / "arena.yaml")
    assert config.run.dataset == "golden/support.json"
    assert config.run.variants_dir == "variants"
    assert config.candidate == "baseline"


def test_an_existing_arena_yaml_decides_the_files_and_a_hosted_judge_its_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path)
    (root / "judge.yaml").write_text(
        "model: {spec: 'openai:judge', base_url: 'http://127.0.0.1:9', api_key_env: JUDGE_KEY}\n"
        "mode: text\n"
    )
    (root / "arena.yaml").write_text(
        "run:\n  dataset: golden/support.json\n  variants_dir: variants\n"
        "compare:\n  judge: judge.yaml\n"
    )
    assert main(["init-ci", "--dir", str(root)]) == 0
    assert "kept (exists; --force overwrites): arena.yaml" in capsys.readouterr().out
    gate = _workflow(root)
    assert "judge.yaml" in gate["on"]["pull_request"]["paths"]
    assert "JUDGE_KEY" in _step(gate, "gate", "Gate")["env"]


def test_an_arena_yaml_on_the_shipped_dataset_is_pointed_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path)
    (root / "arena.yaml").write_text("candidate: baseline\n")
    assert main(["init-ci", "--dir", str(root)]) == 0
    said = capsys.readouterr().out
    assert "runs the shipped research dataset" in said and "golden/support.json" in said
    assert "shopbot/**" in _workflow(root)["on"]["pull_request"]["paths"]


def test_an_empty_repository_keeps_the_usual_folders(tmp_path: Path) -> None:
    assert main(["init-ci", "--dir", str(tmp_path)]) == 0
    paths = _workflow(tmp_path)["on"]["pull_request"]["paths"]
    assert {"prompts/**", "variants/**", "golden/**", "arena.yaml"} <= set(paths)
    assert load_config(tmp_path / "arena.yaml").run.dataset is None

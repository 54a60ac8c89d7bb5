"""No credential in storage: a variant's `base_url` and the CI URL lose their userinfo and
key-like query values wherever they are stored (database, gate.json, gate.md, a baseline
file), saying REDACTED; a key echoed in another case is still redacted; a `javascript:` CI
URL is never a link. The live client still gets the whole URL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.app.trends_view import NOT_A_LINK, run_origins
from arena.cli import main
from arena.extend import PROVIDERS
from arena.models import ModelConfig, register_fake
from tests.gate.conftest import Project, answers, scripted

pytestmark = pytest.mark.unit

KEY = "sk-live-0123456789abcdef"
QUERY_KEY = "qk-9876543210fedcba"
URL = f"http://team:{KEY}@llm.internal:8000/v1?api-key={QUERY_KEY}&deployment=prod"
STORED = "http://REDACTED@llm.internal:8000/v1?api-key=REDACTED&deployment=prod"
CI_TOKEN = "ci-token-5555666677"
ENV_KEY = "sk-env-abcdefghijklmnop"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """A gate project: a golden dataset, variants on scripted models."""
    return Project(tmp_path)


def _variant(project: Project, name: str, table: dict[str, str]) -> None:
    register_fake(f"gate-{name}", [scripted(table)], cycle=True)
    (project.variants / f"{name}.yaml").write_text(
        f"name: {name}\nmodel: {{spec: 'fake:gate-{name}', base_url: '{URL}'}}\ntools: []\n",
        encoding="utf-8",
    )


def _gate(project: Project, db: str) -> tuple[str, str]:
    config, reports = project.config(), project.root / "reports"
    argv = ["gate", "--config", str(config), "--report-dir", str(reports), "--db", db]
    assert main([*argv, "--baseline", "base", "--candidate", "cand"]) in (0, 1)
    return (reports / "gate.json").read_text("utf-8"), (reports / "gate.md").read_text("utf-8")


def _stored_bytes(root: Path) -> bytes:
    """What arena wrote under ``root``: the database, reports, baseline files (not the
    variant files, which hold the URL the team wrote)."""
    written = [*root.glob("arena.db*"), *root.glob("reports/*"), *root.glob("baselines/*")]
    assert written
    return b"".join(path.read_bytes() for path in written)


def test_credentials_in_base_url_and_ci_url_are_never_stored(
    project: Project, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_CI_URL", f"https://ci.example/runs/7?token={CI_TOKEN}&x=1")
    _variant(project, "base", answers())
    _variant(project, "cand", answers(S_1="hmm"))
    doc, md = _gate(project, db_url)
    exported = project.root / "baselines" / "base.json"
    assert main(["baseline", "save", "base", "--export", str(exported), "--db", db_url]) == 0
    stored = _stored_bytes(project.root)  # the database, gate.json, gate.md, the baseline
    for secret in (KEY, QUERY_KEY, CI_TOKEN):
        assert secret.encode() not in stored
    report = json.loads(doc)
    assert report["provenance"]["ci_url"] == "https://ci.example/runs/7?token=REDACTED&x=1"
    assert "(https://ci.example/runs/7?token=REDACTED&x=1)" in md
    assert json.loads(exported.read_text())["variant_config"]["model"]["base_url"] == STORED


def test_the_live_client_gets_the_whole_url() -> None:
    config = ModelConfig(spec="openai:served", base_url=URL)
    client = PROVIDERS.lookup("openai").build(config)
    assert client.openai_api_base == URL  # type: ignore[attr-defined]
    assert config.model_dump(mode="json")["base_url"] == STORED


def test_a_keys_case_changed_echo_is_redacted(
    tmp_path: Path, db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ARENA_TEST_KEY", ENV_KEY)
    echo = f"401: key {ENV_KEY.upper()} refused; the URL's key {KEY.upper()} too"
    register_fake("echo", [RuntimeError(echo)], cycle=True)
    variant = tmp_path / "echo.yaml"
    variant.write_text(
        "name: echo\nmodel: {spec: 'fake:echo', api_key_env: ARENA_TEST_KEY, "
        f"base_url: '{URL}'}}\ntools: []\n",
        encoding="utf-8",
    )
    dataset = tmp_path / "golden.json"
    dataset.write_text(
        json.dumps(
            {
                "name": "echo",
                "available_tools": [],
                "test_cases": [{"id": "E-1", "input": "hi", "category": "happy_path"}],
            }
        ),
        encoding="utf-8",
    )
    argv = ["run", "--variants", str(variant), "--dataset", str(dataset), "--db", db_url]
    assert main(argv) == 0
    assert main(["show", "1", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "[ARENA_TEST_KEY redacted]" in out and "[base_url credential redacted]" in out
    stored = _stored_bytes(tmp_path).lower()
    for secret in (ENV_KEY, KEY):
        assert secret.lower().encode() not in stored
        assert secret.upper() not in out


def test_a_javascript_ci_url_is_never_a_link(
    project: Project, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    hostile = "javascript:alert(document.cookie)"
    monkeypatch.setenv("ARENA_CI_URL", hostile)
    register_fake("gate-base", [scripted(answers())], cycle=True)
    project.variant("base", answers())
    project.variant("cand", answers())
    _, md = _gate(project, db_url)
    assert f"]({hostile})" not in md and f"CI run `{hostile}`" in md
    runs = [{"id": 1, "provenance": {"ci_url": hostile}}, {"id": 2, "provenance": {}}]
    rows = run_origins(runs, {1: "#1", 2: "#2"})
    assert rows[0]["CI run"] == "" and rows[0][NOT_A_LINK] == hostile
    ok = run_origins([{"id": 3, "provenance": {"ci_url": "https://ci.example/3"}}], {3: "#3"})
    assert ok[0]["CI run"] == "https://ci.example/3"

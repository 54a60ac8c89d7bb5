"""``.ci/install.py``: uv installs what pip would, from pip's own settings, or pip does."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.unit

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "install.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_install", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pips_indexes_links_constraints_and_certificate_are_handed_to_uv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = _script()
    index = tmp_path / "simple"
    index.mkdir()
    settings = {
        "extra-index-url": f"file://{index} file://{tmp_path / 'gone'} https://mirror.example/simple",
        "find-links": f"{tmp_path} {tmp_path / 'missing'}",
        "constraint": "/etc/constraints.txt",
        "cert": "/etc/ssl/ca.pem",
        "disable-pip-version-check": "1",
    }
    monkeypatch.setattr(script, "_settings", lambda: settings)
    env = script.uv_env()
    assert env is not None
    # a local folder that is not there is skipped, as pip does, instead of failing uv
    assert env["UV_EXTRA_INDEX_URL"] == f"file://{index} https://mirror.example/simple"
    assert env["UV_FIND_LINKS"] == str(tmp_path)
    assert env["UV_CONSTRAINT"] == "/etc/constraints.txt"
    assert env["SSL_CERT_FILE"] == "/etc/ssl/ca.pem"
    assert env["UV_INDEX_STRATEGY"] == "unsafe-best-match"


def test_a_setting_uv_is_not_told_of_leaves_the_install_to_pip(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script()
    monkeypatch.setattr(script, "_settings", lambda: {"proxy": "http://proxy:3128"})
    assert script.uv_env() is None
    assert "'proxy'" in capsys.readouterr().out


def test_pips_settings_are_read_from_pip_config_list(monkeypatch: pytest.MonkeyPatch) -> None:
    script = _script()
    listing = "global.find-links='/opt/wheels'\n:env:.find-links='/srv/wheels'\nglobal.cert='/c'\n"

    class Done:
        stdout = listing

    monkeypatch.setattr(script, "_pip", lambda *args: Done())
    assert script._settings() == {"find-links": "/srv/wheels", "cert": "/c"}  # variables win

"""One build and one install for the sessions of one checkout: ``.ci/run`` runs the packaging
tests in its offline session and the wheel's local-model demo in the next, both from the
artifacts built, and the venv installed, in the folder it names (``ARENA_TEST_DIST_DIR``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.packaging.conftest import Artifacts, _built, _installed

pytestmark = pytest.mark.unit


def test_a_finished_build_in_the_folder_is_read_not_built_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "agent_arena-0.2.0.tar.gz").write_bytes(b"sdist")
    (tmp_path / "agent_arena-0.2.0-py3-none-any.whl").write_bytes(b"wheel")
    (tmp_path / "build.log").write_text("Successfully built both\n")

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"built again: {args}")

    monkeypatch.setattr(subprocess, "run", no_build)
    artifacts = _built(tmp_path)
    assert artifacts.wheel.read_bytes() == b"wheel"
    assert artifacts.sdist.read_bytes() == b"sdist"
    assert artifacts.log == "Successfully built both\n"  # the first session's log, for its checks


def test_a_finished_install_in_the_folder_is_used_not_installed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    (tmp_path / "install.log").write_text("installed\n")
    wheel = tmp_path / "agent_arena-0.2.0-py3-none-any.whl"

    def no_install(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"installed again: {args}")

    monkeypatch.setattr(subprocess, "run", no_install)
    env = _installed(tmp_path, Artifacts(sdist=wheel, wheel=wheel))
    assert env.root == tmp_path / "venv"
    assert env.install_log == "installed\n"

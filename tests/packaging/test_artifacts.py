"""The sdist and the wheel: valid metadata and README (``twine check``), and every file the
code opens from the data folder or the app is inside the wheel."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile

import pytest

from arena.paths import PACKAGED_DATA
from tests.packaging.conftest import REPO, Artifacts, WheelEnv

pytestmark = pytest.mark.packaging

PACKAGE_DATA = f"arena/{PACKAGED_DATA}"


def _tracked(folder: str) -> set[str]:
    """The repository's files under ``folder`` (git's list; every file without git)."""
    done = subprocess.run(
        ["git", "ls-files", "-z", folder], cwd=REPO, capture_output=True, text=True, check=False
    )
    if done.returncode == 0 and done.stdout:
        return {p for p in done.stdout.split("\0") if p}
    return {p.relative_to(REPO).as_posix() for p in (REPO / folder).rglob("*") if p.is_file()}


def test_twine_check_passes_on_both_artifacts(artifacts: Artifacts) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", artifacts.sdist, artifacts.wheel],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2


def test_the_wheel_holds_every_data_file_and_the_app_page(artifacts: Artifacts) -> None:
    names = set(zipfile.ZipFile(artifacts.wheel).namelist())
    data = _tracked("data")
    assert {"data/pricing.yaml", "data/golden/research_agent.json"} <= data
    shipped = {f"{PACKAGE_DATA}/{p.removeprefix('data/')}" for p in data}
    assert shipped <= names, sorted(shipped - names)
    assert {n for n in names if n.startswith(f"{PACKAGE_DATA}/")} == shipped  # nothing stale
    # the page `arena app` serves, and the other files the package opens itself
    assert {"arena/app/page.py", "arena/models/qwen_tools.jinja"} <= names
    assert {
        f"arena/ci/templates/{p.name}" for p in (REPO / "arena/ci/templates").iterdir()
    } <= names


def test_the_sdist_holds_what_the_wheel_is_built_from(artifacts: Artifacts) -> None:
    with tarfile.open(artifacts.sdist) as sdist:
        top, *_ = sdist.getnames()
        names = {n.removeprefix(f"{top.split('/')[0]}/") for n in sdist.getnames()}
    wanted = _tracked("data") | {"app.py", "setup.py", "MANIFEST.in", "pyproject.toml"}
    wanted |= {".streamlit/config.toml", "README.md", "arena/app/page.py"}
    assert wanted <= names, sorted(wanted - names)


def test_both_artifacts_ship_the_schema_migrations(artifacts: Artifacts) -> None:
    """The revisions that upgrade a database are inside the package (an installed wheel
    upgrades an older database), with their template."""
    migrations = REPO / "arena" / "storage" / "migrations"
    wanted = {
        p.relative_to(REPO).as_posix()
        for p in migrations.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert {
        "arena/storage/migrations/env.py",
        "arena/storage/migrations/script.py.mako",
        "arena/storage/migrations/versions/0001_baseline.py",
    } <= wanted
    assert wanted <= set(zipfile.ZipFile(artifacts.wheel).namelist())
    with tarfile.open(artifacts.sdist) as sdist:
        top = sdist.getnames()[0].split("/")[0]
        assert wanted <= {n.removeprefix(f"{top}/") for n in sdist.getnames()}


def test_neither_the_build_nor_the_install_warns_of_a_deprecation(
    artifacts: Artifacts, wheel_env: WheelEnv
) -> None:
    """The metadata is in its current form (an SPDX ``license`` string, PEP 639): setuptools
    warned that a ``license`` table is deprecated, and pip warns of deprecated usage."""
    for what, log in (("python -m build", artifacts.log), ("pip install", wheel_env.install_log)):
        deprecations = [line for line in log.splitlines() if "deprecat" in line.lower()]
        assert not deprecations, (what, deprecations)
    assert "Successfully built" in artifacts.log  # the log is the build's


def test_the_license_is_an_spdx_expression(artifacts: Artifacts) -> None:
    with zipfile.ZipFile(artifacts.wheel) as wheel:
        (metadata,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
        text = wheel.read(metadata).decode()
    assert "\nLicense-Expression: Apache-2.0\n" in text

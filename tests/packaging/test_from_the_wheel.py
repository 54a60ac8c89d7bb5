"""The wheel, installed into a clean virtual environment, works from any directory: it reads
its own shipped data, runs the shipped example and ``arena demo`` on scripted models, and
serves ``arena app`` to a real headless Chromium. Nothing of the checkout is on its path.

README's first command, then what it says to type next (its follow-up lines and the
five-minute tour), pasted into a shell in the folder where command 1 ran, each work: command 1
(``python3 -m venv .venv && .venv/bin/pip install -e '.[local]' && .venv/bin/arena demo``)
leaves ``.venv`` (here: the wheel's clean virtual environment) and ``arena.db`` (here: the
demo on scripted models) in the folder, and a shell whose PATH has no ``arena``."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.docs.blocks import blocks
from tests.packaging.conftest import REPO, Artifacts, WheelEnv
from tests.support.browser import free_port, headless_chromium, served_app

pytestmark = pytest.mark.packaging

DEMO_SCRIPTS = """
models:
  local:qwen2.5-coder-1.5b: strong
  local:qwen2.5-coder-0.5b: weak
scripts:
  strong:
    - system: impartial judge
      when: ["-a>\\nno idea"]
      replies: ["A gives no answer. [[B>A]]"]
    - system: impartial judge
      when: ["-b>\\nno idea"]
      replies: ["B gives no answer. [[A>B]]"]
    - system: impartial judge
      replies: ["Both say the same. [[A=B]]"]
    - replies: ["25% of 1200 is 300. Dividing by zero is undefined: I cannot do that."]
  weak:
    - replies: ["No idea."]
"""
# Every open() of the process, recorded by an audit hook; otherwise exactly the `arena` script.
AUDITED_ARENA = """
import atexit, json, os, sys
opened = set()
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, os.PathLike)):
        opened.add(os.path.realpath(os.fspath(args[0])))
sys.addaudithook(hook)
atexit.register(lambda: json.dump(sorted(opened), open(os.environ["OPENED"], "w")))
from arena.cli import main
sys.exit(main(sys.argv[1:]))
"""
RESOLVED = """
import json
from arena.cli.app import app_file
from arena.cli.common import default_dataset
from arena.agents.research.corpus import default_corpus_dir, load_corpus
from arena.paths import data_dir
import arena
assert len(load_corpus()) > 0  # the built-in agent's corpus loads, with no argument
print(json.dumps({"package": arena.__file__, "data": str(data_dir()), "app": str(app_file()),
                  "dataset": default_dataset(), "corpus": str(default_corpus_dir())}))
"""


@dataclass(frozen=True)
class Demo:
    folder: Path
    stdout: str
    opened: list[str]


@pytest.fixture(scope="module")
def scripted_demo(wheel_env: WheelEnv, tmp_path_factory: pytest.TempPathFactory) -> Demo:
    """``arena demo`` on scripted models (the text judge), from an empty directory."""
    folder = tmp_path_factory.mktemp("demo") / "empty"
    folder.mkdir()
    scripts = folder.parent / "scripts.yaml"
    scripts.write_text(DEMO_SCRIPTS)
    opened = folder.parent / "opened.json"
    argv = ["--fake-scripts", scripts, "demo", "--judge", "local:qwen2.5-coder-1.5b/text",
            "--second-judge", "none", "--bootstrap", "50"]  # fmt: skip
    done = wheel_env.run(
        folder, wheel_env.python, "-P", "-c", AUDITED_ARENA, *argv,
        OPENED=str(opened), ARENA_SANDBOX_DIR=str(folder.parent / "sandboxes"),
    )  # fmt: skip
    return Demo(folder, done.stdout, json.loads(opened.read_text()))


def _site_packages(wheel_env: WheelEnv) -> Path:
    (found,) = wheel_env.root.glob("lib/python3*/site-packages")
    return found.resolve()


def test_the_installed_package_resolves_its_data_and_app_inside_itself(
    wheel_env: WheelEnv, empty_dir: Path
) -> None:
    done = wheel_env.run(empty_dir, wheel_env.python, "-P", "-c", RESOLVED)
    paths = {k: Path(v) for k, v in json.loads(done.stdout).items()}
    site = _site_packages(wheel_env)
    for name, path in paths.items():
        assert path.resolve().is_relative_to(site / "arena"), (name, path)
        assert path.exists(), (name, path)
    assert paths["data"] == site / "arena" / "_data"


def test_the_demo_runs_on_scripted_models_from_an_empty_directory(
    scripted_demo: Demo, wheel_env: WheelEnv, artifacts: Artifacts
) -> None:
    out = scripted_demo.stdout
    assert "== " not in out  # the steps go to stderr; stdout is the results
    assert "24 results scored" in out  # 3 variants x the 8 critical cases of the shipped set
    assert "Is the cheaper model good enough? small-model vs baseline: WORSE" in out
    assert "no battles" not in out
    assert (scripted_demo.folder / "arena.db").is_file()
    # Every file it read from the package is in the wheel; it read the shipped data there.
    site = _site_packages(wheel_env)
    names = set(zipfile.ZipFile(artifacts.wheel).namelist())
    package_files = {
        Path(p).relative_to(site).as_posix()
        for p in scripted_demo.opened
        if Path(p).is_relative_to(site / "arena") and "__pycache__" not in p
    }
    assert package_files <= names, sorted(package_files - names)
    data = {p.removeprefix("arena/_data/") for p in package_files if p.startswith("arena/_data/")}
    corpus = {f"corpus/{p.name}" for p in (REPO / "data" / "corpus").glob("*.yaml")}
    assert {
        "golden/research_agent.json",
        "variants/baseline.yaml",
        "variants/prompt-v2.yaml",
        "variants/small-model.yaml",
        "prompts/baseline.md",
        "prompts/prompt-v2.md",
        "pricing.yaml",
        *corpus,
    } <= data
    assert not [p for p in scripted_demo.opened if Path(p).is_relative_to(REPO)]


def test_the_shipped_example_runs_end_to_end_from_the_wheel(
    wheel_env: WheelEnv, tmp_path: Path
) -> None:
    folder = tmp_path / "own-agent"
    shutil.copytree(REPO / "examples" / "own-agent", folder)

    def arena(*argv: str, as_json: bool = True) -> Any:
        done = wheel_env.run(
            folder, wheel_env.arena, "--fake-scripts", "fake_models.yaml", *argv,
            *(["--json"] if as_json else []), ARENA_SANDBOX_DIR=str(tmp_path / "sandboxes"),
        )  # fmt: skip
        return json.loads(done.stdout) if as_json else done.stdout

    variants = [f"variants/{n}.yaml" for n in ("baseline", "prompt-v2", "small-model")]
    run = arena("run", "--variants", *variants, "--dataset", "golden/kitchen.json")
    assert len(run["results"]) == 3 * 6 and all(r["error"] is None for r in run["results"])
    scores = {v["variant"]: v["pass_rate"] for v in arena("score")["variants"]}
    assert scores["baseline"] == 1.0 and scores["small-model"] < 1.0
    assert arena("judge", "--judge", "local:qwen2.5-coder-1.5b/text")["battles"]
    board = {e["variant"]: e["rating"] for e in arena("ratings")["entries"]}
    assert board["small-model"] < board["baseline"]
    arena("baseline", "save", "baseline", "--export", "baselines/baseline.json", as_json=False)
    assert arena("gate")["passed"] is True  # arena.yaml: candidate prompt-v2


# --- arena app from the wheel, in headless Chromium -------------------------------------------


@pytest.fixture
def served(scripted_demo: Demo, wheel_env: WheelEnv, empty_dir: Path) -> Iterator[str]:
    """``arena app`` from the wheel venv, in an empty directory, on the demo's database."""
    port = free_port()
    log = empty_dir.parent / "app.log"
    db = f"sqlite:///{scripted_demo.folder / 'arena.db'}"
    command = [str(wheel_env.arena), "app", "--db", db, "--port", str(port)]
    with served_app(command, port=port, cwd=empty_dir, env=wheel_env.env(), log=log) as url:
        yield url


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """Headless Chromium (selenium of the dev venv drives it; the server is the wheel's)."""
    with headless_chromium(tmp_path / "chrome", size="1400,2000") as driver:
        yield driver


@pytest.mark.browser
def test_arena_app_from_the_wheel_serves_the_leaderboard_in_chromium(
    served: str, browser: Any
) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def table_text(driver: Any) -> str:
        frames = driver.find_elements(By.CSS_SELECTOR, '[data-testid="stDataFrame"]')
        return str(frames[0].get_attribute("textContent")) if frames else ""

    browser.get(served)
    wait = WebDriverWait(browser, 90, ignored_exceptions=(StaleElementReferenceException,))
    wait.until(lambda d: all(v in table_text(d) for v in ("baseline", "prompt-v2", "small-model")))
    body = browser.find_element(By.TAG_NAME, "body").text
    assert "Agent Arena leaderboard" in body
    assert not browser.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]')


def test_the_wheel_upgrades_a_database_of_an_older_release(
    wheel_env: WheelEnv, empty_dir: Path
) -> None:
    """The migrations run from the installed package: a database written by 0.1.0 code is
    upgraded (with its backup copy) and read."""
    from tests.support.old_db import OLD_COMMITS, old_database

    db = old_database(OLD_COMMITS[0], empty_dir)
    url = f"sqlite:///{db}"
    assert "agent-arena 0.2.0" in wheel_env.run(empty_dir, wheel_env.arena, "--version").stdout
    upgraded = wheel_env.run(empty_dir, wheel_env.arena, "db", "upgrade", "--db", url).stdout
    assert "upgraded to schema revision" in upgraded and ".bak" in upgraded
    assert "finished" in wheel_env.run(empty_dir, wheel_env.arena, "runs", "--db", url).stdout


# --- README's first command, then what it says to type next -------------------------------

README = REPO / "README.md"


def _lines(source: str) -> list[str]:
    """A shell block's commands: comments and blank lines dropped, trailing comments cut."""
    out = []
    for line in source.splitlines():
        command = re.sub(r"\s+#\s.*$", "", line).strip()
        if command and not command.startswith("#"):
            out.append(command)
    return out


def follow_up_lines() -> list[str]:
    """What README's command 1 does after the demo (``... && arena demo && NEXT``) and any line
    it says to type before command 2."""
    first = next(blocks(README, "bash"))
    body = first.source.split("\n# 2.", 1)[0]
    commands = [part.strip() for c in _lines(body) for part in c.split(" && ")]
    (one,) = [i for i, c in enumerate(commands) if c.endswith(".venv/bin/arena demo")]
    return commands[one + 1 :]


def tour_commands() -> list[str]:
    """The commands of README's five-minute tour."""
    text = README.read_text(encoding="utf-8")
    heading = text[: text.index("\n## A five-minute tour\n")].count("\n") + 2
    tour = next(b for b in blocks(README, "bash") if b.line > heading)
    return _lines(tour.source)


def _bare_path() -> str:
    """The shell's PATH as after command 1: no folder of it holds an ``arena``."""
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(f for f in folders if f and not (Path(f) / "arena").exists())


@pytest.fixture(scope="module")
def after_command_one(scripted_demo: Demo, wheel_env: WheelEnv) -> tuple[Path, dict[str, str]]:
    """The folder command 1 leaves (``.venv`` and ``arena.db``) and a new shell's environment."""
    folder = scripted_demo.folder
    if not (folder / ".venv").exists():
        (folder / ".venv").symlink_to(wheel_env.root, target_is_directory=True)
    env = {**wheel_env.env(), "PATH": _bare_path()}
    assert shutil.which("arena", path=env["PATH"]) is None
    return folder, env


def _shell(folder: Path, env: dict[str, str], *commands: str) -> subprocess.CompletedProcess[str]:
    script = "\n".join([*follow_up_lines(), *commands])
    return subprocess.run(
        ["bash", "-c", script], cwd=folder, env=env, capture_output=True, text=True, timeout=300
    )


def test_the_readme_says_what_to_type_after_command_one() -> None:
    assert follow_up_lines() == ["source .venv/bin/activate"]
    assert [c.split()[:2] for c in tour_commands()][:3] == [
        ["arena", "runs"],
        ["arena", "score"],
        ["arena", "show"],
    ]


def test_without_the_follow_up_lines_arena_is_not_found(
    after_command_one: tuple[Path, dict[str, str]],
) -> None:
    folder, env = after_command_one
    done = subprocess.run(["bash", "-c", "arena runs"], cwd=folder, env=env, capture_output=True)
    assert done.returncode == 127  # what a user saw: command not found


@pytest.mark.parametrize("command", [c for c in tour_commands() if not c.startswith("arena app")])
def test_each_tour_command_works_after_the_follow_up_lines(
    after_command_one: tuple[Path, dict[str, str]], command: str
) -> None:
    folder, env = after_command_one
    done = _shell(folder, env, command)
    # `arena compare` exits 1 when the candidate is worse: an answer, not a failure
    expected = (0, 1) if command.startswith("arena compare") else (0,)
    assert done.returncode in expected, (command, done.stdout[-2000:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr and done.stdout.strip(), command
    if command.startswith("arena compare"):
        assert "small-model vs baseline" in done.stdout


def test_arena_app_of_the_tour_serves_after_the_follow_up_lines(
    after_command_one: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    folder, env = after_command_one
    (app,) = [c for c in tour_commands() if c.startswith("arena app")]
    port = free_port()
    script = "\n".join([*follow_up_lines(), f"exec {app} --port {port}"])
    log = tmp_path / "app.log"
    command = ["bash", "-c", script]
    with (
        served_app(command, port=port, cwd=folder, env=env, log=log) as url,
        urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as reply,
    ):
        assert reply.status == 200

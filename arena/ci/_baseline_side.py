"""The baseline's side of the cases that changed since it, or are new: its code, run on them.

A baseline holds no answer to a case edited (or added) after it was saved, so the gate makes
one: it checks out the commit the baseline was made at (its recorded ``provenance.commit``;
else, in CI, the merge base with the target branch: ``GITHUB_BASE_REF``,
``CI_MERGE_REQUEST_TARGET_BRANCH_NAME`` or ``ARENA_BASE_REF``) into a temporary ``git
worktree`` and runs the baseline's recorded variant from there on those cases, with ``arena
run`` in a subprocess whose working directory is the project's folder in that checkout and
whose import path starts there, so the team's own packages are the baseline's (agent-arena
itself is the running one), with the gate's own ``arena.yaml``. The run goes to the same
database, keyed as any run: a rerun makes no model call. A scripts file (``--fake-scripts``)
inside the repository is the checkout's copy.

Where that cannot be done, :attr:`BaselineSide.ran` is False and its message says why
(``baseline commit unavailable: ...``); the gate then applies ``critical_failing``
(:mod:`arena.gate._rules`). A baseline made from uncommitted changes (its provenance has
``dirty``) recorded the commit they sat on: its side runs that commit's code, and says so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import make_url

from arena.ci._worktree import (
    CommitUnavailable,
    checked_out,
    full_commit,
    is_commit_hash,
    merge_base,
    repository_top,
)
from arena.errors import InputError
from arena.gate._alignment import align
from arena.gate._changed import touched
from arena.golden import GoldenDataset, case_hash
from arena.project._config import GateConfig
from arena.records.provenance import DIRTY
from arena.scoring._baseline import Baseline, CaseRecord
from arena.storage import Store

BASE_BRANCH_VARIABLES = ("ARENA_BASE_REF", "GITHUB_BASE_REF", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME")
"""Where CI names the branch a pull request merges into (its merge base is the fallback)."""
VARIANT_FILE = ".arena-baseline-variant.yaml"
BOOT = (
    "import json, sys\n"
    "sys.path[:] = [p for p in sys.path if p not in ('', '.')]\n"
    "import arena.cli, judges\n"  # agent-arena itself: the running one, never the checkout's
    "sys.path[0:0] = json.loads(sys.argv[1])\n"
    "sys.exit(arena.cli.main(sys.argv[2:]))\n"
)


class BaselineSide(BaseModel):
    """The baseline's records on cases that changed since it, or why there are none."""

    model_config = ConfigDict(extra="forbid")

    ran: bool
    message: str = Field(
        description="``baseline side run from commit abc1234`` or why it could not run."
    )
    commit: str | None = None
    run_id: int | None = None
    cases: dict[str, CaseRecord] = Field(default_factory=dict)
    simulator_errors: dict[str, int] = Field(
        default_factory=dict,
        description="Simulator errors of the side's run, case by case (a case whose every "
        "repeat was one has no record: missing evidence).",
    )
    previous: dict[str, CaseRecord] = Field(
        default_factory=dict,
        description="The candidate's records on the baseline's own (previous) version of each "
        "critical case edited since it (arena.ci._previous).",
    )
    previous_run: int | None = Field(None, description="The stored run of those records.")
    previous_missing: dict[str, str] = Field(
        default_factory=dict,
        description="Edited critical cases whose previous version could not be found, and why.",
    )
    weakened: dict[str, str] = Field(
        default_factory=dict,
        description="Edited critical cases that lost checks: case id -> the checks removed.",
    )


def uncommitted(baseline: Baseline) -> str | None:
    """``baseline was made from uncommitted changes on top of abc1234: its side ran abc1234's
    code`` when its run's working tree had uncommitted changes, else None."""
    commit = baseline.provenance.get("commit", "")
    if baseline.provenance.get(DIRTY) != "true" or not commit:
        return None
    return (
        f"baseline was made from uncommitted changes on top of {commit[:7]}: its side ran "
        f"{commit[:7]}'s code"
    )


def uncommitted_warning(baseline: Baseline) -> str | None:
    """What ``arena baseline save`` warns of when the run was made from uncommitted changes."""
    commit = baseline.provenance.get("commit", "")
    if baseline.provenance.get(DIRTY) != "true" or not commit:
        return None
    return (
        f"run {baseline.source_run_id} was made from uncommitted changes on top of commit "
        f"{commit[:7]}: the baseline records {commit[:7]}, and the gate runs {commit[:7]}'s "
        "code for the baseline's side of changed cases; commit, run again and save again"
    )


class SideFailed(Exception):
    """The baseline's code was checked out but its run failed."""


class ProjectMoved(CommitUnavailable):
    """The project's folder (its path in the repository, the message) is not in the commit
    checked out: it moved since the baseline (:func:`moved_error`)."""


def moved_error(config: GateConfig, baseline: Baseline, folder: str, commit: str) -> InputError:
    """The one line (exit 2) for a project moved since the commit its baseline records: what,
    and the command that saves the baseline again from this layout."""
    ref = config.baseline or ""
    file = ref if ref.endswith(".json") else None
    export = f" --export {ref}" if file else ""
    return InputError(
        f"the project folder {folder} is not in commit {commit[:7]}, where the baseline was "
        "saved: the project moved since, so the baseline's code cannot run on the changed "
        f"cases; save the baseline again from this layout (`arena baseline save "
        f"{baseline.variant}{export}`) and commit it",
        file=file,
        field="provenance.commit",
    )


def unavailable(why: str) -> BaselineSide:
    """A side that could not run: ``baseline commit unavailable: WHY``."""
    return BaselineSide(ran=False, message=f"baseline commit unavailable: {why}")


def baseline_commit(top: Path, baseline: Baseline) -> tuple[str, str]:
    """The commit to run the baseline from, and where it came from in words."""
    recorded = baseline.provenance.get("commit", "")
    why = "the baseline records no commit (save it again from a git checkout)"
    if recorded and not is_commit_hash(recorded):
        why = f"the baseline records {recorded!r}, not a commit hash (save it again)"
    elif recorded:
        try:
            return full_commit(top, recorded), ""
        except CommitUnavailable as exc:
            why = str(exc)
    branch = next((os.environ[v] for v in BASE_BRANCH_VARIABLES if os.environ.get(v)), "")
    if not branch:
        raise CommitUnavailable(why)
    return merge_base(top, branch), f" (the merge base with {branch}: {why})"


def _db_url(url: str) -> str:
    """The URL with a relative SQLite path made absolute (the subprocess runs elsewhere)."""
    parsed = make_url(url)
    database = parsed.database or ""
    if not parsed.drivername.startswith("sqlite") or database in ("", ":memory:"):
        if parsed.drivername.startswith("sqlite"):
            raise CommitUnavailable("an in-memory database cannot be shared with the rerun")
        return url
    if database.startswith("file:") or Path(database).is_absolute():
        return url
    return parsed.set(database=str(Path(database).resolve())).render_as_string(hide_password=False)


def _environment(top: Path, checkout: Path, url: str) -> dict[str, str]:
    env = dict(os.environ)
    env["ARENA_DB_URL"] = _db_url(url)  # not in argv: a password stays out of `ps`
    scripts = env.get("ARENA_FAKE_SCRIPTS")
    if scripts and Path(scripts).resolve().is_relative_to(top):
        theirs = checkout / Path(scripts).resolve().relative_to(top)
        if theirs.is_file():
            env["ARENA_FAKE_SCRIPTS"] = str(theirs)
    return env


def _argv(config: GateConfig, variant: Path, dataset: str, cases: list[str]) -> list[str]:
    argv = [
        "run",
        "--variants",
        str(variant),
        "--dataset",
        str(Path(dataset).resolve()),
        "--tier",
        "all",
        "--cases",
        ",".join(cases),
        "--repeats",
        str(config.run.repeats),
        "--concurrency",
        str(config.run.concurrency),
        "--timeout",
        str(config.run.timeout_s),
        "--json",
        "--allow-unoffered-tools",  # the baseline's code may predate a tool the PR adds
    ]
    if config.run.user_model:
        argv += ["--user-model", config.run.user_model]
    if config.source_file:  # the gate's own settings, not the checkout's arena.yaml
        argv += ["--config", str(Path(config.source_file).resolve())]
    return argv


def _run_there(
    where: tuple[Path, Path],
    config: GateConfig,
    store: Store,
    spec: dict[str, object],
    run: tuple[str, list[str]],
) -> int:
    """``arena run`` of the recorded variant from the checkout (``where``: the repository's
    top and the checkout) on ``run`` (the dataset and the cases); the run's id."""
    top, checkout = where
    inside = Path(config.base_dir).resolve().relative_to(top)
    project = checkout / inside
    if not project.is_dir():  # the project folder moved (or was made) since the baseline
        raise ProjectMoved(inside.as_posix() or ".")
    variant = project / VARIANT_FILE
    variant.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    paths = [str(p) for p in dict.fromkeys((project, project / "src", checkout))]
    argv = _argv(config, variant, *run)
    done = subprocess.run(
        [sys.executable, "-c", BOOT, json.dumps(paths), *argv],
        cwd=project,
        env=_environment(top, checkout, store.url),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        tail = " ".join((done.stderr.strip() or done.stdout.strip()).splitlines()[-3:])
        raise SideFailed(f"`arena run` exited {done.returncode}: {tail[-400:]}")
    return _run_id(done.stdout)


def _run_id(stdout: str) -> int:
    """The run id in ``arena run --json``'s output (the last JSON object: an agent may print
    before it)."""
    start = 0 if stdout.startswith("{") else stdout.rfind("\n{\n") + 1
    try:
        return int(json.loads(stdout[start:])["run_id"])
    except (ValueError, KeyError, TypeError):
        raise SideFailed("`arena run` printed no run id") from None


def _records(
    store: Store, config: GateConfig, run_id: int, name: str
) -> tuple[dict[str, CaseRecord], dict[str, int]]:
    """The side's records, and its simulator errors case by case."""
    from arena.evaluation.run_scores import make_grader, score_run
    from arena.scoring._baseline import make_baseline

    scores = score_run(store, run_id, make_grader(config.grader, store))
    snap = make_baseline(
        scores.variant(name),
        scores.cases,
        name=name,
        dataset=store.run_dataset(run_id),
        results=store.results(run_id),
    )
    return snap.cases, snap.simulator_errors


def run_baseline_side(
    store: Store,
    config: GateConfig,
    baseline: Baseline,
    dataset: str,
    cases: list[str],
    candidate: str,
) -> BaselineSide:
    """Run the baseline's recorded variant, from its commit's code, on ``cases`` (module
    docstring); ``candidate``: its name, which the baseline's takes ``-baseline`` beside."""
    spec = dict(baseline.variant_config or {})
    if not spec:
        return BaselineSide(
            ran=False,
            message="baseline side not run: the baseline records no variant configuration "
            "(save it again)",
        )
    if spec.get("name") == candidate:
        spec["name"] = f"{candidate}-baseline"
    name = str(spec["name"])
    commit = ""
    try:
        top = repository_top(Path(config.base_dir).resolve())
        commit, how = baseline_commit(top, baseline)
        _db_url(store.url)
        with checked_out(top, commit) as checkout:
            run_id = _run_there((top, checkout), config, store, spec, (dataset, cases))
    except ProjectMoved as exc:
        if not how:  # the commit the baseline records: exit 2, save it again
            raise moved_error(config, baseline, str(exc), commit) from None
        return unavailable(
            f"the project folder {exc} is not in that commit (it moved since the baseline?); "
            "save the baseline again from this layout"
        )
    except CommitUnavailable as exc:
        return unavailable(str(exc))
    except SideFailed as exc:
        return BaselineSide(
            ran=False,
            commit=commit,
            message=f"baseline side could not run from commit {commit[:7]}: {exc}",
        )
    records, simulated = _records(store, config, run_id, name)
    dirty = uncommitted(baseline) if not how else None
    message = f"baseline side run from commit {commit[:7]}{how}"
    return BaselineSide(
        ran=True,
        commit=commit,
        run_id=run_id,
        message=message + (f"; {dirty}" if dirty else ""),
        cases={c: records[c] for c in cases if c in records},
        simulator_errors={c: n for c, n in simulated.items() if c in cases},
    )


def baseline_side(
    store: Store,
    config: GateConfig,
    baseline: Baseline | None,
    cand: Baseline,
    dataset: tuple[GoldenDataset, str],
    progress: bool,
) -> BaselineSide | None:
    """The baseline's code run on the cases the candidate ran that changed since a saved
    baseline, or are new (None: no such case, or the baseline is a variant of this run)."""
    if baseline is None:
        return None
    hashes = {c.id: case_hash(c) for c in dataset[0].test_cases}
    cases = touched(align(baseline, cand, hashes), cand)
    if not cases:
        return None
    if progress:
        print(f"baseline side: {len(cases)} changed or new case(s)", file=sys.stderr)
    return run_baseline_side(store, config, baseline, dataset[1], cases, cand.variant)

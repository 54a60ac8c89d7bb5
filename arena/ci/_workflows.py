"""The shipped GitHub Actions workflows and the ``arena.yaml`` that ``arena init-ci`` writes.

The templates live in ``arena/ci/templates``; five placeholders are filled in: the pip
spec of agent-arena the workflows install (``__ARENA_INSTALL__``), the pip spec of the
repository's own package, installed after it (``__ARENA_PROJECT__``: ``.`` when the repository
has a ``pyproject.toml``, ``setup.py`` or ``setup.cfg``, else nothing), the path filters of
the pull-request trigger (``__ARENA_PATHS__``), the baseline file the nightly run may raise
(``__ARENA_BASELINE__``) and the gate step's environment of API-key secrets
(``__ARENA_SECRETS__``: ``NAME: ${{ secrets.NAME }}`` per key, the line dropped when none).
What a repository holds (its datasets, variants, factory packages and keys) is read by
:mod:`arena.ci._scan`. This repository's own ``.github/workflows`` are these templates
rendered with :data:`REPO_INSTALL` and :data:`REPO_PATHS` (a test keeps them identical).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

TEMPLATES = Path(__file__).with_name("templates")
WORKFLOWS = {
    ".github/workflows/arena-gate.yml": "arena-gate.yml",
    ".github/workflows/arena-nightly.yml": "arena-nightly.yml",
}
DEFAULT_INSTALL = "agent-arena[local]"
PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
DEFAULT_PATHS: tuple[str, ...] = (
    "prompts/**",
    "variants/**",
    "golden/**",
    "data/**",
    "arena.yaml",
    "baselines/**",
)
DEFAULT_BASELINE = "baselines/baseline.json"
REPO_INSTALL = ".[local]"
REPO_PATHS: tuple[str, ...] = (
    "arena/agents/**",
    "data/prompts/**",
    "data/variants/**",
    "data/golden/**",
    "arena.yaml",
    "baselines/**",
    ".github/workflows/arena-*.yml",
)
"""How this repository renders its own workflows."""


def render(
    template: str,
    *,
    install: str = DEFAULT_INSTALL,
    paths: Sequence[str] = DEFAULT_PATHS,
    baseline: str = DEFAULT_BASELINE,
    project: str = "",
    secrets: Sequence[str] = (),
    mutation: str | None = None,
) -> str:
    """One template with its placeholders filled in (``project``: your package's pip spec,
    empty for none; ``secrets``: the environment variables the gate step reads from the
    repository's secrets of the same names; ``mutation``: the variant a nightly mutation
    pass mutates, none by default)."""
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    lines = "\n".join(f'      - "{p}"' for p in paths)
    step, verdict = _mutation_steps(mutation, secrets) if mutation else ("", "")
    return (
        text.replace("__ARENA_MUTATION__\n", step)
        .replace("__ARENA_MUTATION_VERDICT__\n", verdict)
        .replace("__ARENA_PATHS__", lines)
        .replace("__ARENA_SECRETS__\n", _secrets_env(secrets))
        .replace("__ARENA_INSTALL__", install)
        .replace("__ARENA_PROJECT__", project)
        .replace("__ARENA_BASELINE__", baseline)
    )


def _secrets_env(names: Sequence[str]) -> str:
    if not names:
        return ""
    return "        env:\n" + "".join(f"          {n}: ${{{{ secrets.{n} }}}}\n" for n in names)


def _mutation_steps(variant: str, secrets: Sequence[str]) -> tuple[str, str]:
    """The nightly job's mutation pass (after the gate) and its verdict (last): ``arena
    mutate`` of ``variant`` on arena.yaml's dataset, failing below ``mutation.min_score``."""
    step = (
        "\n      - name: Mutation pass (what would the golden set miss?)\n"
        "        id: mutate\n"
        "        if: always()\n" + _secrets_env(secrets) + "        run: |\n"
        "          set +e\n"
        f"          arena mutate --config arena.yaml --variant {_yaml_value(variant)} "
        "--report reports/mutate.md\n"
        '          echo "exit=$?" >> "$GITHUB_OUTPUT"\n'
        "          if [ -f reports/mutate.md ]; then\n"
        '            cat reports/mutate.md >> "$GITHUB_STEP_SUMMARY"\n'
        "          fi\n"
    )
    verdict = (
        "\n      - name: Mutation score verdict (arena.yaml mutation.min_score)\n"
        "        if: always()\n"
        "        env:\n"
        "          MUTATE_EXIT: ${{ steps.mutate.outputs.exit }}\n"
        '        run: exit "${MUTATE_EXIT:-2}"\n'
    )
    return step, verdict


def _yaml_value(value: str) -> str:
    return value if re.fullmatch(r"[\w./-]+", value) else json.dumps(value)


def arena_yaml(
    baseline: str = DEFAULT_BASELINE,
    candidate: str = "baseline",
    dataset: str | None = None,
    variants_dir: str | None = None,
) -> str:
    """A starting ``arena.yaml``: every key, with the gate's defaults (``dataset`` and
    ``variants_dir``: the repository's own, else the shipped ones)."""
    from arena.project._config import EXAMPLE

    text = EXAMPLE.replace("baseline: baselines/baseline.json", f"baseline: {baseline}", 1)
    text = text.replace("candidate: baseline ", f"candidate: {_yaml_value(candidate)} ", 1)
    if dataset:
        text = text.replace("  dataset: null  ", f"  dataset: {_yaml_value(dataset)}  ", 1)
    if variants_dir:
        text = text.replace(
            "  variants_dir: null  ", f"  variants_dir: {_yaml_value(variants_dir)}  ", 1
        )
    return text


def project_install(root: Path) -> str:
    """The pip spec of the repository's own package: ``.`` when ``root`` has one, else ""."""
    return "." if any((root / name).is_file() for name in PROJECT_FILES) else ""


def ci_files(
    *,
    install: str = DEFAULT_INSTALL,
    paths: Sequence[str] = DEFAULT_PATHS,
    baseline: str = DEFAULT_BASELINE,
    project: str = "",
    secrets: Sequence[str] = (),
    config: str | None = None,
    mutation: str | None = None,
) -> dict[str, str]:
    """Relative path -> text of everything ``arena init-ci`` writes (``config``: the
    ``arena.yaml`` text, default :func:`arena_yaml`; ``mutation``: the variant the nightly
    job mutates, none by default)."""
    files = {
        target: render(
            template,
            install=install,
            paths=paths,
            baseline=baseline,
            project=project,
            secrets=secrets,
            mutation=mutation if "nightly" in template else None,
        )
        for target, template in WORKFLOWS.items()
    }
    files["arena.yaml"] = config if config is not None else arena_yaml(baseline)
    return files


def write_ci_files(root: Path, files: dict[str, str], *, force: bool = False) -> dict[str, str]:
    """Write the files under ``root``; existing ones are kept unless ``force``.

    Returns relative path -> ``written``, ``overwritten`` or ``kept (exists; --force
    overwrites)``.
    """
    states = {}
    for name, text in files.items():
        target = root / name
        if target.exists() and not force:
            states[name] = "kept (exists; --force overwrites)"
            continue
        existed = target.exists()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        states[name] = "overwritten" if existed else "written"
    return states

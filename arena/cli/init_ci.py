"""``arena init-ci``: write (or print) the shipped GitHub Actions workflows and an arena.yaml
into a repository."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    """Add the init-ci sub-command."""
    p = sub.add_parser(
        "init-ci",
        help="write the merge-gate and nightly GitHub Actions "
        "workflows and an arena.yaml into a repository",
    )
    p.add_argument("--dir", default=".", help="the repository's root (default: here)")
    p.add_argument(
        "--install",
        default=None,
        metavar="PIP_SPEC",
        help="how the workflows pip-install agent-arena (default: agent-arena[local])",
    )
    p.add_argument(
        "--install-project",
        default=None,
        metavar="PIP_SPEC",
        help="how the workflows then pip-install your own package, the one your agent "
        "factories import from (default: '.' when --dir has a pyproject.toml, setup.py or "
        "setup.cfg; 'none' installs nothing)",
    )
    p.add_argument(
        "--paths",
        default=None,
        metavar="GLOB,...",
        help="files whose change triggers the gate on a pull request",
    )
    p.add_argument(
        "--print",
        action="store_true",
        dest="print_only",
        help="print the files instead of writing them",
    )
    p.add_argument("--force", action="store_true", help="overwrite existing files")
    p.set_defaults(handler=cmd_init_ci)


def cmd_init_ci(args: argparse.Namespace) -> int:
    """Write or print the workflows and arena.yaml."""
    from pathlib import Path

    from arena.gate.ci import (
        DEFAULT_INSTALL,
        DEFAULT_PATHS,
        ci_files,
        project_install,
        write_ci_files,
    )

    paths = [p.strip() for p in args.paths.split(",")] if args.paths else list(DEFAULT_PATHS)
    install = args.install or DEFAULT_INSTALL
    project = args.install_project
    project = project_install(Path(args.dir)) if project is None else project
    project = "" if project.strip().lower() == "none" else project.strip()
    files = ci_files(install=install, paths=paths, project=project)
    if args.print_only:
        for name, text in files.items():
            print(f"# ---- {name}\n{text}")
        return 0
    for name, state in write_ci_files(Path(args.dir), files, force=args.force).items():
        print(f"{state}: {name}")
    print(installs_line(install, project))
    return 0


def installs_line(install: str, project: str) -> str:
    """What the written workflows install, said plainly."""
    if project:
        return (
            f"the workflows pip-install {install}, then your project: pip install {project} "
            "(--install-project changes it, 'none' skips it)"
        )
    return (
        f"the workflows pip-install {install} only (no pyproject.toml, setup.py or setup.cfg "
        "here): agent factories import from the variants' folders and arena.yaml's; give "
        "--install-project SPEC to install your package"
    )

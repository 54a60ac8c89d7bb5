"""``arena init-ci``: write (or print) the shipped GitHub Actions workflows and an arena.yaml
into a repository."""

from __future__ import annotations

import argparse
from typing import Any

from arena.cli._commands import command


@command("init-ci", order=170)
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
        help="files whose change triggers the gate on a pull request (default: the "
        "repository's arena.yaml, datasets, variants, the prompts and factory packages they "
        "name, baselines and packaging files)",
    )
    p.add_argument(
        "--secrets",
        default=None,
        metavar="NAME,...",
        help="environment variables the gate step reads from the repository secrets of the "
        "same names (default: the API-key variables of the variants' and judge's hosted "
        "models; 'none' for none)",
    )
    p.add_argument(
        "--mutation",
        default=None,
        metavar="VARIANT",
        help="add a mutation pass of this variant to the nightly job (`arena mutate`; it "
        "fails the night below arena.yaml's mutation.min_score)",
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
    """Write or print the workflows and arena.yaml, fitted to the repository."""
    from pathlib import Path

    from arena.ci._scan import fake_scripts_file, scan_project
    from arena.ci._workflows import (
        DEFAULT_INSTALL,
        arena_yaml,
        ci_files,
        project_install,
        write_ci_files,
    )

    root = Path(args.dir)
    scan = scan_project(root, getattr(args, "fake_scripts", None) or fake_scripts_file())
    paths = _listed(args.paths) if args.paths else trigger_paths(scan)
    secrets = _listed(args.secrets) if args.secrets else scan.secrets
    install = args.install or DEFAULT_INSTALL
    project = args.install_project
    project = project_install(root) if project is None else project
    project = "" if project.strip().lower() == "none" else project.strip()
    config = arena_yaml(
        candidate=scan.candidate or "baseline", dataset=scan.dataset, variants_dir=scan.variants_dir
    )
    files = ci_files(
        install=install,
        paths=paths,
        project=project,
        secrets=secrets,
        config=config,
        mutation=args.mutation,
    )
    if args.print_only:
        for name, text in files.items():
            print(f"# ---- {name}\n{text}")
        return 0
    for name, state in write_ci_files(root, files, force=args.force).items():
        print(f"{state}: {name}")
    for line in found_lines(scan, paths, secrets):
        print(line)
    print(installs_line(install, project))
    return 0


def _listed(value: str) -> list[str]:
    items = [v.strip() for v in value.split(",") if v.strip()]
    return [] if [i.lower() for i in items] == ["none"] else items


def trigger_paths(scan: Any) -> list[str]:
    """The scan's paths; with no dataset or variants found, the usual folders as well."""
    from arena.ci._workflows import DEFAULT_PATHS

    if scan.datasets or scan.variants_dir:
        return list(scan.paths)
    return list(dict.fromkeys([*DEFAULT_PATHS, *scan.paths]))


def found_lines(scan: Any, paths: list[str], secrets: list[str]) -> list[str]:
    """What the workflows were fitted to, said plainly."""
    lines = [f"pull requests run the gate when these change: {', '.join(paths)}"]
    if secrets:
        lines.append(
            f"the gate step reads {', '.join(secrets)} from the repository's secrets of the "
            "same names: add them (Settings > Secrets and variables > Actions); never printed"
        )
    if scan.dataset and scan.variants_dir and not scan.has_config:
        lines.append(
            f"arena.yaml runs {scan.dataset} with the variants in {scan.variants_dir}, "
            f"candidate {scan.candidate}"
        )
    return lines + scan.notes


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

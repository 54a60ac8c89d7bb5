"""``arena app``: the Streamlit leaderboard on a database (read-only, never calls a model).

It serves the page shipped in the package (``arena/app/page.py``), so it works from a wheel in
any folder. A wheel has no ``.streamlit/config.toml``: the settings the repository's config
file holds for ``streamlit run app.py`` (:data:`STREAMLIT_SETTINGS`) are passed as flags.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db

DEFAULT_PORT = 8501
DEFAULT_ADDRESS = "127.0.0.1"
ALL_INTERFACES = ("0.0.0.0", "::")
STREAMLIT_SETTINGS: dict[str, str] = {
    "server.address": DEFAULT_ADDRESS,
    "server.headless": "true",
    "browser.gatherUsageStats": "false",
    "client.toolbarMode": "viewer",
}
"""What both ways of starting the app use: this machine only, no usage statistics, no browser
opened by the server, the viewer's toolbar (``.streamlit/config.toml`` holds the same)."""


def app_file() -> Path:
    """The page Streamlit runs: ``page.py`` of the installed ``arena.app`` package."""
    page = resources.files("arena.app").joinpath("page.py")
    return Path(str(page))


@command("app", order=110)
def register(sub: Any) -> None:
    """Add the app sub-command."""
    p = sub.add_parser("app", help="open the leaderboard web app (Streamlit) on a database")
    p.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port to serve on (default: {DEFAULT_PORT})"
    )
    p.add_argument(
        "--address",
        default=DEFAULT_ADDRESS,
        help=f"address to listen on (default: {DEFAULT_ADDRESS}, this machine only; "
        "0.0.0.0 serves every network interface: anyone who can reach it reads the database)",
    )
    add_db(p)
    p.set_defaults(handler=cmd_app)


def app_command(port: int, address: str = DEFAULT_ADDRESS) -> list[str]:
    """The command line that serves the app on ``address``:``port``."""
    settings = {**STREAMLIT_SETTINGS, "server.port": str(port), "server.address": address}
    flags = [part for key, value in settings.items() for part in (f"--{key}", value)]
    return [sys.executable, "-m", "streamlit", "run", str(app_file()), *flags]


def app_env(db: str | None) -> dict[str, str]:
    """The environment for the app: ARENA_DB_URL set when --db was given."""
    env = dict(os.environ)
    if db:
        env["ARENA_DB_URL"] = db
    return env


def app_url(address: str, port: int) -> str:
    """The URL of the app (an IPv6 address in brackets)."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}"


def cmd_app(args: argparse.Namespace) -> int:
    """Replace this process with ``python -m streamlit run .../arena/app/page.py``."""
    from arena.errors import InputError

    if not 0 < args.port < 65536:
        raise InputError(f"port {args.port} is out of range", field="port")
    address = args.address.strip()
    if not address or any(c.isspace() for c in address):
        raise InputError(f"not an address: {args.address!r}", field="--address")
    command = app_command(args.port, address)
    print(f"arena app: serving {app_url(address, args.port)} (Ctrl+C to stop)", flush=True)
    if address in ALL_INTERFACES:
        print(
            "arena app: listening on all network interfaces: anyone who can reach this "
            "machine can read the database",
            flush=True,
        )
    os.execvpe(command[0], command, app_env(args.db))
    return 0  # pragma: no cover - execvpe does not return

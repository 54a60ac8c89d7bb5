"""``arena db``: the database's schema revision (``status``) and its upgrade (``upgrade``)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from arena.cli._commands import command
from arena.cli.common import add_db


@command("db", order=240)
def register(sub: Any) -> None:
    """Add ``arena db status`` and ``arena db upgrade``."""
    p = sub.add_parser("db", help="the database's schema revision and its upgrade")
    actions = p.add_subparsers(dest="db_action", required=True)
    status = actions.add_parser(
        "status", help="the database's schema revision and this release's (reads only)"
    )
    status.add_argument("--json", action="store_true", help="print the status as JSON")
    add_db(status)
    status.set_defaults(handler=cmd_status)
    upgrade = actions.add_parser(
        "upgrade",
        help="upgrade an older database to this release's schema, in one transaction (an "
        "SQLite file is copied beside itself first); a current one is left as it is",
    )
    add_db(upgrade)
    upgrade.set_defaults(handler=cmd_upgrade)


def cmd_status(args: argparse.Namespace) -> int:
    """Print where the database's schema stands; exit 0 when this release can use it as it is
    (current or new), 1 when it needs ``arena db upgrade``, 2 when it is newer."""
    from arena._version import __version__
    from arena.storage import database_status

    status = database_status(args.db)
    if args.json:
        body = {**status.model_dump(), "state": status.state, "release": __version__}
        print(json.dumps(body, indent=2))
    else:
        print(f"database: {status.describe() if status.has_tables else 'new (no tables)'}")
        print(f"this release: agent-arena {__version__}, schema revision {status.head}")
        print(_advice(status.state))
    return {"current": 0, "empty": 0, "behind": 1, "unversioned": 1}.get(status.state, 2)


def _advice(state: str) -> str:
    return {
        "current": "up to date",
        "empty": "new: its tables are created when a command first uses it",
        "behind": "older: run `arena db upgrade` (an SQLite file is copied first)",
        "unversioned": "older: run `arena db upgrade` (an SQLite file is copied first)",
        "ahead": "newer: written by a newer agent-arena; upgrade agent-arena to use it",
    }[state]


def cmd_upgrade(args: argparse.Namespace) -> int:
    """Upgrade the database (the upgrade's line is printed on stderr as it happens)."""
    from arena.storage import upgrade_database

    before, done = upgrade_database(args.db)
    if done is None:
        where = "created" if before.state == "empty" else "already up to date"
        print(f"database {where}: schema revision {before.head}")
    else:
        print(f"database upgraded to schema revision {done.to_revision}")
        if done.backup:
            print(f"backup copy of the file before the upgrade: {done.backup}")
    return 0

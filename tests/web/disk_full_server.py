"""``umpire serve`` whose disk is "full" while a flag file exists beside its database.

    python -m tests.web.disk_full_server serve --db DB ...   (the umpire serve options)

While ``DB.full`` exists, every write transaction of the SQLite store fails at its
COMMIT with SQLite's own "database or disk is full" (``SQLITE_FULL``), through the store's
fault-injection hook (``before_commit``); remove the file and writes succeed again. For
the browser test of the paused notice (tests/web/test_disk_full_page.py).
"""

from __future__ import annotations

import os
import sqlite3
import sys
from typing import Any

from server.store.sqlite import SqliteStore


def arm() -> None:
    """Give every SQLite store the flag-file hook when it opens."""
    original = SqliteStore.open

    async def open_(self: SqliteStore) -> None:
        flag = f"{self.path}.full"

        async def full() -> None:
            if os.path.exists(flag):
                error = sqlite3.OperationalError("database or disk is full")
                error.sqlite_errorcode = sqlite3.SQLITE_FULL
                raise error

        await original(self)
        self.before_commit = full

    SqliteStore.open = open_  # type: ignore[method-assign]


def main(argv: list[str]) -> Any:
    arm()
    from server.cli import main as umpire

    return umpire(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

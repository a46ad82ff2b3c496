"""``umpire serve`` that kills itself (SIGKILL) at a point of a rated game's end, for the
tests that a rating is never lost and never counted twice (tests/server/test_rated_sigkill.py).

    python -m tests.server.kill_point before serve --db ...   (the umpire serve options)

``before``: the rated game's end (and its rating update) is written in its transaction
but not yet committed; the game's last action is committed (the room waits for it before
it ends the game). ``after``: the end and its rating are committed, but nobody was told.
Both stores are patched, so the point is the same on SQLite and on PostgreSQL: through the
store's ``before_commit`` hook, which runs between a transaction's writes and its COMMIT.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from server.store.contract import EventRow, GameRow, RatingChange, RatingPlan, Store


def die() -> None:
    """SIGKILL this process: no cleanup, no flush, no goodbye."""
    os.kill(os.getpid(), signal.SIGKILL)


def arm(cls: type[Store], when: str) -> None:
    """Make ``cls.finish_game`` kill the process ``when`` (before or after its commit) for
    a rated game."""
    original = cls.finish_game

    async def finish_game(
        self: Store,
        row: GameRow,
        events: Sequence[EventRow],
        stats: Mapping[str, Mapping[str, float]],
        plan: RatingPlan | None = None,
    ) -> list[RatingChange]:
        if plan is not None and when == "before":

            async def kill() -> None:
                die()

            self.before_commit = kill
        changes = await original(self, row, events, stats, plan)
        if plan is not None:
            die()
        return changes

    cls.finish_game = finish_game  # type: ignore[method-assign]


def main(argv: list[str]) -> Any:
    when, *serve = argv
    assert when in ("before", "after"), when
    from server.store.pg import PgStore
    from server.store.sqlite import SqliteStore

    arm(SqliteStore, when)
    arm(PgStore, when)
    from server.cli import main as umpire

    return umpire(serve)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

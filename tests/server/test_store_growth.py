"""The cost of an action does not grow with the games a store holds (issue 34, item 8).

A saturated five-minute run cost 15 to 25% more server CPU per action than a 15-second
one, most of it the SQLite writer's: room ids were random, and a game's rows (clustered by
its id) went into the middle of every earlier game's pages, so each commit read and
rewrote more cold pages the more games the store held. Room ids now sort by when they were
made (server.ids.time_ordered): the live games' rows are appended at the end of the
B-trees. Measured here by counts, not time: the pages one commit writes to the WAL.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from benchmarks.store_write import events, game_row
from server.ids import ORDER_EPOCH, opaque, time_ordered
from server.net.app import UmpireServer
from server.store.contract import ActionRow
from server.store.sqlite import SqliteStore
from tests.server.wsclient import WsClient

LIVE = 30  #: games in play while the WAL is counted
ROUNDS = 4  #: one action of every live game per round
HISTORY = 300  #: finished games written in between
PER_GAME = 12  #: their actions (two events each)


@given(st.floats(0, 60 * 365 * 86400), st.floats(1, 10 * 365 * 86400))
def test_a_later_second_gives_a_later_id(start: float, later: float) -> None:
    first = time_ordered(6, ORDER_EPOCH + start)
    second = time_ordered(6, ORDER_EPOCH + start + later)
    assert first < second
    assert first.lower() < second.lower()  # (case-blind collations agree)
    for text in (first, second):
        assert not text.startswith("-") and len(text) == 6 + len(opaque(6))


def test_ids_before_the_epoch_or_past_its_range_still_work() -> None:
    assert time_ordered(6, 0).startswith("000000")
    assert time_ordered(6, ORDER_EPOCH + 36**6 + 5).startswith("zzzzzz")


async def test_the_lobby_numbers_rooms_in_the_order_they_were_made(
    server: UmpireServer,
) -> None:
    seconds = iter(range(ORDER_EPOCH + 1000, ORDER_EPOCH + 2000, 7))
    server.lobby.wall = lambda: float(next(seconds))
    ana = await WsClient.open(server.port)
    try:
        await ana.hello("ana")
        made = []
        for _ in range(6):
            created = await ana.request(
                "create_room", "created", game="perudo", options={"seats": 2}
            )
            made.append(created["room"])
    finally:
        await ana.close()
    assert made == sorted(made)


async def _frames(db: Path) -> int:
    """The pages in the WAL now; then empty it (so that the next count starts at 0)."""
    with contextlib.closing(sqlite3.connect(db)) as side:
        frames: int = side.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
        side.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return frames


async def _play(store: SqliteStore, ids: list[str], actions: int, first: int = 1) -> None:
    """``actions`` actions (two events each) of every game in ``ids``, all at once."""

    async def one(game_id: str) -> None:
        for n in range(first, first + actions):
            await store.append(game_id, events(2 * n - 1, n, 2), ActionRow(n, n % 4, "3x4", 0.0))

    await asyncio.gather(*(one(game_id) for game_id in ids))


async def _wal_per_round(store: SqliteStore, db: Path, ids: list[str]) -> float:
    """Pages written to the WAL per round of one action in each of the live ``ids``."""
    for game_id in ids:
        await store.save_game(game_row(game_id), ())
    await _frames(db)
    total = 0
    for n in range(1, ROUNDS + 1):
        await _play(store, ids, 1, first=n)
        total += await _frames(db)
    return total / ROUNDS


async def _growth(tmp_path: Path, make_id: Callable[[int], str]) -> tuple[float, float]:
    """Pages per round for live games on an empty store, then with ``HISTORY`` games
    before them (ids ``make_id(0)``, ``make_id(1)``... in the order they were made)."""
    db = tmp_path / f"growth-{make_id.__name__}.db"
    store = SqliteStore(str(db), synchronous="NORMAL")
    await store.open()
    try:
        made = iter(range(10**6))
        fresh = await _wal_per_round(store, db, [make_id(next(made)) for _ in range(LIVE)])
        old = [make_id(next(made)) for _ in range(HISTORY)]
        for game_id in old:
            await store.save_game(game_row(game_id), ())
        for start in range(0, HISTORY, 300):
            await _play(store, old[start : start + 300], PER_GAME)
        grown = await _wal_per_round(store, db, [make_id(next(made)) for _ in range(LIVE)])
    finally:
        await store.close()
    return fresh, grown


async def test_a_commit_writes_as_many_pages_whatever_the_history(tmp_path: Path) -> None:
    def ordered(i: int) -> str:  # a game a second, as the lobby makes them
        return time_ordered(6, ORDER_EPOCH + 86400 + i)

    def random_ids(i: int) -> str:  # the ids of before
        return opaque(6)

    fresh, grown = await _growth(tmp_path, ordered)
    # (a deeper tree adds a page or so per B-tree: the games, their actions and events)
    assert grown <= 1.25 * fresh + 6, (fresh, grown)
    # the measure tells: with random ids the same commits write far more pages
    fresh, grown = await _growth(tmp_path, random_ids)
    assert grown >= 2 * fresh, (fresh, grown)

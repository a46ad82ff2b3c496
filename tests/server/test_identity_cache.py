"""The players a server meets are cached by id, and the cache is bounded (issue 34, item 8):
a long-running server meeting a stream of new guests keeps a fixed number in memory, and
a player who left the cache is read back from the store."""

from __future__ import annotations

from pathlib import Path

from server.players.identity import CACHE_SIZE, Identities
from server.store.sqlite import SqliteStore


async def test_the_cache_keeps_the_players_met_lately_and_no_more(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "players.db"), synchronous="NORMAL")
    await store.open()
    try:
        identities = Identities(store)
        assert identities.cache_size == CACHE_SIZE >= 10_000
        identities.cache_size = 5
        first = (await identities.hello("first", None, False)).player
        guests = [(await identities.hello(f"guest{i}", None, False)).player for i in range(3)]
        assert await identities.get(first.id) == first  # (used: now the latest)
        for i in range(3, 40):
            guests.append((await identities.hello(f"guest{i}", None, False)).player)
            assert identities.cached <= 5
        assert identities.cached == 5
        # the least recently used went first; any of them is still found, in the store
        assert await identities.get(guests[0].id) == guests[0]
        assert await identities.get(first.id) == first
        assert identities.cached == 5
        assert await identities.get("p000000000000") is None
    finally:
        await store.close()

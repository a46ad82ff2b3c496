"""The store's reads, written once in SQL that SQLite and PostgreSQL both accept.

Both stores keep the same tables and columns (``server/store/contract.py`` lists them), so every
read is the same query and the same row shaping; only how a query reaches the database
differs. :class:`SqlReads` holds the queries, with ``?`` placeholders; a store supplies
:meth:`SqlReads._fetch`, which runs one on connections that see committed rows only
(PostgreSQL numbers the placeholders, ``$1, $2...``).
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

from server.store.contract import (
    GAME_COLUMNS,
    ActionRow,
    ChatRow,
    EventRow,
    GameRow,
    PlayerRow,
    Store,
    game_from_row,
)

__all__ = ["SqlReads"]

_CREATED = GAME_COLUMNS.split(", ").index("created")


class SqlReads(Store):
    """Every read of the store contract, over :meth:`_fetch`."""

    #: how many games one page of :meth:`iter_games` reads
    page_size: int

    @abstractmethod
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Sequence[Any]]:
        """Run one query (``?`` placeholders) on committed rows; raise ``StoreError``."""

    async def _one(self, sql: str, params: Sequence[Any]) -> Sequence[Any] | None:
        rows = await self._fetch(sql, params)
        return rows[0] if rows else None

    async def chat(self, game_id: str) -> list[ChatRow]:
        rows = await self._fetch(
            "SELECT n, at, channel, seat, player_id, name, text FROM chat "
            "WHERE game_id = ? ORDER BY n",
            (game_id,),
        )
        return [ChatRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in rows]

    async def player(self, player_id: str) -> PlayerRow | None:
        r = await self._one("SELECT id, name, bot, created FROM players WHERE id = ?", (player_id,))
        return None if r is None else PlayerRow(r[0], r[1], bool(r[2]), r[3])

    async def player_by_token(self, token_hash: str) -> PlayerRow | None:
        r = await self._one(
            "SELECT id, name, bot, created FROM players WHERE token_hash = ?", (token_hash,)
        )
        return None if r is None else PlayerRow(r[0], r[1], bool(r[2]), r[3])

    async def game(self, game_id: str) -> GameRow | None:
        r = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if r is None else game_from_row(r)

    async def game_by_invite(self, invite: str) -> str | None:
        r = await self._one("SELECT id FROM games WHERE invite = ?", (invite,))
        return None if r is None else str(r[0])

    async def iter_games(
        self, statuses: Iterable[str] | None = None, *, game: str | None = None
    ) -> AsyncIterator[GameRow]:
        filters: list[str] = []
        params: list[Any] = []
        if statuses is not None:
            wanted = list(statuses)
            if not wanted:
                return
            filters.append(f"status IN ({', '.join('?' * len(wanted))})")
            params.extend(wanted)
        if game is not None:
            filters.append("game = ?")
            params.append(game)
        after: tuple[float, str] | None = None
        while True:
            # Keyset paging: each page starts after the last row of the one before, so a
            # page costs the same however deep it is and rows added meanwhile are not
            # seen twice.
            page_filters = list(filters)
            page_params = list(params)
            if after is not None:
                page_filters.append("(created, id) > (?, ?)")
                page_params.extend(after)
            where = " AND ".join(page_filters) or "TRUE"
            rows = await self._fetch(
                f"SELECT {GAME_COLUMNS} FROM games WHERE {where} ORDER BY created, id LIMIT ?",
                [*page_params, self.page_size],
            )
            for r in rows:
                yield game_from_row(r)
            if len(rows) < self.page_size:
                return
            after = (rows[-1][_CREATED], rows[-1][0])

    async def actions(self, game_id: str) -> list[ActionRow]:
        rows = await self._fetch(
            "SELECT n, seat, action, at, clocks FROM actions WHERE game_id = ? ORDER BY n",
            (game_id,),
        )
        return [
            ActionRow(r[0], r[1], r[2], r[3], None if r[4] is None else json.loads(r[4]))
            for r in rows
        ]

    async def events(self, game_id: str) -> list[EventRow]:
        rows = await self._fetch(
            "SELECT seq, source, truth, action_n FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [EventRow(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    async def history(self, player_id: str, limit: int = 20) -> list[dict[str, Any]]:
        rows = await self._fetch(
            "SELECT g.id, g.game, g.status, gp.seat, g.result, g.reason, g.started, g.finished "
            "FROM game_players gp JOIN games g ON g.id = gp.game_id "
            "WHERE gp.player_id = ? ORDER BY g.started DESC NULLS LAST, g.id LIMIT ?",
            (player_id, limit),
        )
        out = []
        for r in rows:
            result = None if r[4] is None else json.loads(r[4])
            ranks = result.get("ranks") if isinstance(result, dict) else None
            rank = ranks[r[3]] if isinstance(ranks, list) and r[3] < len(ranks) else None
            out.append(
                {
                    "room": r[0],
                    "game": r[1],
                    "status": r[2],
                    "seat": r[3],
                    "rank": rank,
                    "reason": r[5],
                    "started": r[6],
                    "finished": r[7],
                }
            )
        return out

    async def stats(self, player_id: str) -> dict[str, dict[str, float]]:
        rows = await self._fetch(
            "SELECT game, key, value FROM player_stats WHERE player_id = ? ORDER BY game, key",
            (player_id,),
        )
        out: dict[str, dict[str, float]] = {}
        for game, key, value in rows:
            out.setdefault(game, {})[key] = int(value) if float(value).is_integer() else value
        return out

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

from server.errors import StoreError
from server.store.contract import (
    GAME_COLUMNS,
    SEEK_COLUMNS,
    ActionRow,
    ChatRow,
    Credentials,
    EventRow,
    GameRow,
    PlayerRow,
    Rating,
    RatingChange,
    RatingKey,
    RatingPlan,
    RatingRow,
    SeekRow,
    SessionRow,
    Store,
    TournamentRow,
    game_from_row,
    seek_from_row,
)

__all__ = ["SqlReads"]

#: the columns of ``players`` that make a :class:`PlayerRow` (:func:`player_from_row`)
PLAYER_COLUMNS = "id, name, bot, created, kind, owner"
#: the columns of ``ratings`` that make a :class:`RatingRow` (:func:`rating_from_row`)
RATING_COLUMNS = (
    "player_id, version, game, rules, pool, rating, deviation, volatility, games, updated"
)
#: the columns of ``rating_changes`` that make a :class:`RatingChange`
#: (:func:`change_from_row`; :func:`change_values` without the leading ``n``)
CHANGE_COLUMNS = (
    "n, game_id, seat, player_id, version, game, rules, pool, before_rating, "
    "before_deviation, before_volatility, before_games, after_rating, after_deviation, "
    "after_volatility, after_games, at"
)


#: a rating's upsert (``?`` placeholders, :data:`RATING_COLUMNS` order)
UPSERT_RATING = (
    f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?) "
    "ON CONFLICT (player_id, version, game, rules) DO UPDATE SET pool = excluded.pool, "
    "rating = excluded.rating, deviation = excluded.deviation, "
    "volatility = excluded.volatility, games = excluded.games, updated = excluded.updated"
)
#: a rating change's insert (``?`` placeholders, :data:`CHANGE_COLUMNS` order, ``n`` first)
INSERT_CHANGE = f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES ({', '.join('?' * 17)})"
#: the stored changes of one game (``?``: its id), by seat
GAME_CHANGES = f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ? ORDER BY seat"
#: one key's current rating (``?``: player, version, game, rules)
CURRENT_RATING = (
    "SELECT rating, deviation, volatility, games FROM ratings "
    "WHERE player_id = ? AND version = ? AND game = ? AND rules = ?"
)
#: is an account name's key (an account's, a bot account's or a house bot's: a house bot's
#: key is its lower-cased name) taken by another player? (``?``: key, the player's own id)
#: Answered by the unique index on ``players.account``: never a scan of the players.
NAME_TAKEN = "SELECT id FROM players WHERE account = ? AND id <> ?"
#: the player whose name has this key (``?``): an account, a bot account or a house bot
PLAYER_BY_NAME = f"SELECT {PLAYER_COLUMNS} FROM players WHERE account = ?"
#: a new player (``?``: id, name, bot, created, kind, owner, account, password)
INSERT_PLAYER = (
    "INSERT INTO players (id, name, bot, created, kind, owner, account, password) "
    "VALUES (?,?,?,?,?,?,?,?)"
)
#: keep a public signing key (``?``: id, public, created); one kept already stays
ADD_SIGNING_KEY = (
    "INSERT INTO signing_keys (id, public, created) VALUES (?,?,?) ON CONFLICT (id) DO NOTHING"
)
#: a new session (``?``: token_hash, player, kind, created, last_used)
INSERT_SESSION = (
    "INSERT INTO sessions (token_hash, player_id, kind, created, last_used) VALUES (?,?,?,?,?)"
)


def current_rating(r: Sequence[Any] | None) -> Rating | None:
    """A :data:`CURRENT_RATING` row as the rating a plan starts from (None: never rated;
    a row of 0 games is a placeholder that only locks the key, see ``server.store.pg``)."""
    if r is None or int(r[3]) == 0:
        return None
    return Rating(r[0], r[1], r[2], int(r[3]))


def planned_changes(
    row: GameRow, plan: RatingPlan, current: Sequence[Rating | None], first_n: int
) -> list[RatingChange]:
    """The changes ``plan`` makes to the seats' ``current`` ratings, numbered from
    ``first_n`` in seat order, at the game's end (its ``finished``, else ``created``)."""
    after = list(plan.rate(current))
    if len(after) != len(plan.seats):
        raise StoreError(
            f"game {row.id}: the rating plan gave {len(after)} ratings for {len(plan.seats)} seats"
        )
    at = row.finished if row.finished is not None else row.created
    return [
        RatingChange(row.id, seat, key, pool, before or plan.initial, new, at, first_n + seat)
        for seat, ((key, pool), before, new) in enumerate(
            zip(plan.seats, current, after, strict=True)
        )
    ]


def player_from_row(r: Sequence[Any], start: int = 0) -> PlayerRow:
    """A :class:`PlayerRow` from :data:`PLAYER_COLUMNS` (from column ``start`` on)."""
    return PlayerRow(
        r[start], r[start + 1], bool(r[start + 2]), r[start + 3], r[start + 4], r[start + 5]
    )


def rating_from_row(r: Sequence[Any], start: int = 0) -> RatingRow:
    """A :class:`RatingRow` from :data:`RATING_COLUMNS` (from column ``start`` on)."""
    key = RatingKey(r[start], r[start + 1], r[start + 2], r[start + 3])
    rating = Rating(r[start + 5], r[start + 6], r[start + 7], int(r[start + 8]))
    return RatingRow(key, r[start + 4], rating, r[start + 9])


def change_from_row(r: Sequence[Any]) -> RatingChange:
    """A :class:`RatingChange` from :data:`CHANGE_COLUMNS`."""
    return RatingChange(
        game_id=r[1],
        seat=r[2],
        key=RatingKey(r[3], r[4], r[5], r[6]),
        pool=r[7],
        before=Rating(r[8], r[9], r[10], int(r[11])),
        after=Rating(r[12], r[13], r[14], int(r[15])),
        at=r[16],
        n=int(r[0]),
    )


def change_values(change: RatingChange) -> tuple[Any, ...]:
    """A ``rating_changes`` row in :data:`CHANGE_COLUMNS` order, without ``n``."""
    key, before, after = change.key, change.before, change.after
    return (
        change.game_id,
        change.seat,
        key.player,
        key.version,
        key.game,
        key.rules,
        change.pool,
        before.rating,
        before.deviation,
        before.volatility,
        before.games,
        after.rating,
        after.deviation,
        after.volatility,
        after.games,
        change.at,
    )


def rating_values(key: RatingKey, pool: str, rating: Rating, updated: float) -> tuple[Any, ...]:
    """A ``ratings`` row in :data:`RATING_COLUMNS` order."""
    return (
        key.player,
        key.version,
        key.game,
        key.rules,
        pool,
        rating.rating,
        rating.deviation,
        rating.volatility,
        rating.games,
        updated,
    )


def final_ratings(changes: Sequence[RatingChange]) -> list[tuple[Any, ...]]:
    """(``replace_ratings``) Each key's current rating: its last change's ``after``, as
    ``ratings`` rows, in the order the keys were first rated."""
    last: dict[RatingKey, RatingChange] = {}
    for change in changes:
        last[change.key] = change
    return [rating_values(c.key, c.pool, c.after, c.at) for c in last.values()]


def player_values(
    player: PlayerRow, account: str | None = None, password: str | None = None
) -> tuple[Any, ...]:
    """A :data:`INSERT_PLAYER` row. A house bot's ``account`` is its key, its lower-cased
    name (a plain ASCII kind, reserved to it): names are found by that one index."""
    if player.kind == "house" and account is None:
        account = player.name.lower()
    return (
        player.id,
        player.name,
        player.bot,
        player.created,
        player.kind,
        player.owner,
        account,
        password,
    )


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
            "SELECT n, at, channel, seat, player_id, name, text, pos, hash FROM chat "
            "WHERE game_id = ? ORDER BY n",
            (game_id,),
        )
        return [ChatRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]) for r in rows]

    async def player(self, player_id: str) -> PlayerRow | None:
        r = await self._one(f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,))
        return None if r is None else player_from_row(r)

    async def player_by_token(self, token_hash: str) -> PlayerRow | None:
        r = await self._one(
            f"SELECT {_P_COLUMNS} FROM sessions s JOIN players p ON p.id = s.player_id "
            "WHERE s.token_hash = ?",
            (token_hash,),
        )
        return None if r is None else player_from_row(r)

    async def player_by_name(self, account: str) -> PlayerRow | None:
        r = await self._one(PLAYER_BY_NAME, (account,))
        return None if r is None else player_from_row(r)

    # -- accounts and sessions ---------------------------------------------------------

    async def session(self, token_hash: str) -> SessionRow | None:
        r = await self._one(
            "SELECT token_hash, player_id, kind, created, last_used FROM sessions "
            "WHERE token_hash = ?",
            (token_hash,),
        )
        return None if r is None else SessionRow(r[0], r[1], r[2], r[3], r[4])

    async def credentials(self, account: str) -> Credentials | None:
        r = await self._one(
            f"SELECT {PLAYER_COLUMNS}, password FROM players "
            "WHERE account = ? AND kind IN ('account', 'bot')",
            (account,),
        )
        return None if r is None else Credentials(player_from_row(r), r[6] or "")

    async def bot_accounts(self, owner: str) -> list[PlayerRow]:
        rows = await self._fetch(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE owner = ? AND kind = 'bot' "
            "ORDER BY created, id",
            (owner,),
        )
        return [player_from_row(r) for r in rows]

    # -- ratings -----------------------------------------------------------------------

    async def rating_changes(self, game_id: str) -> list[RatingChange]:
        rows = await self._fetch(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [change_from_row(r) for r in rows]

    async def ratings(self, player_id: str) -> list[RatingRow]:
        rows = await self._fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = ? AND games > 0 "
            "ORDER BY game, rules, version",
            (player_id,),
        )
        return [rating_from_row(r) for r in rows]

    async def rating_history(self, key: RatingKey, limit: int = 500) -> list[RatingChange]:
        rows = await self._fetch(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes "
            "WHERE player_id = ? AND game = ? AND rules = ? AND version = ? "
            "ORDER BY n DESC LIMIT ?",
            (key.player, key.game, key.rules, key.version, limit),
        )
        return [change_from_row(r) for r in reversed(rows)]

    async def leaderboard(
        self, game: str, rules: str, pool: str, *, min_games: int, limit: int = 100
    ) -> list[tuple[PlayerRow, RatingRow]]:
        # The index ratings_board is in exactly this order: the query reads the first
        # rows of one range of it (skipping those with too few games), no sort.
        rows = await self._fetch(
            f"SELECT {_P_COLUMNS}, {_R_COLUMNS} FROM ratings r "
            "JOIN players p ON p.id = r.player_id "
            "WHERE r.game = ? AND r.rules = ? AND r.pool = ? AND r.games >= ? "
            "ORDER BY r.rating DESC, r.games, r.player_id, r.version LIMIT ?",
            (game, rules, pool, max(min_games, 1), limit),
        )
        return [(player_from_row(r), rating_from_row(r, 6)) for r in rows]

    async def iter_rated_games(self) -> AsyncIterator[GameRow]:
        # Every seat of a rated game is rated, and a game's changes are numbered in seat
        # order: its seat 0's change is its first. Keyset paging on n.
        after = 0
        while True:
            rows = await self._fetch(
                f"SELECT c.n, {_G_COLUMNS} FROM rating_changes c "
                "JOIN games g ON g.id = c.game_id "
                "WHERE c.seat = 0 AND c.n > ? ORDER BY c.n LIMIT ?",
                (after, self.page_size),
            )
            for r in rows:
                yield game_from_row(r[1:])
            if len(rows) < self.page_size:
                return
            after = int(rows[-1][0])

    async def game(self, game_id: str) -> GameRow | None:
        r = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if r is None else game_from_row(r)

    async def game_by_invite(self, invite: str) -> str | None:
        r = await self._one("SELECT id FROM games WHERE invite = ?", (invite,))
        return None if r is None else str(r[0])

    async def iter_games(
        self,
        statuses: Iterable[str] | None = None,
        *,
        game: str | None = None,
        created_after: float | None = None,
    ) -> AsyncIterator[GameRow]:
        filters: list[str] = []
        params: list[Any] = []
        if created_after is not None:
            filters.append("created >= ?")
            params.append(created_after)
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
            "SELECT n, seat, action, at, clocks, decided_by, pos, hash FROM actions "
            "WHERE game_id = ? ORDER BY n",
            (game_id,),
        )
        return [
            ActionRow(
                r[0], r[1], r[2], r[3], None if r[4] is None else json.loads(r[4]), r[5], r[6], r[7]
            )
            for r in rows
        ]

    async def events(self, game_id: str) -> list[EventRow]:
        rows = await self._fetch(
            "SELECT seq, source, truth, action_n, pos, hash FROM events "
            "WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [EventRow(r[0], r[1], json.loads(r[2]), r[3], r[4], r[5]) for r in rows]

    async def signing_keys(self) -> dict[str, str]:
        rows = await self._fetch("SELECT id, public FROM signing_keys ORDER BY created, id")
        return {str(r[0]): str(r[1]) for r in rows}

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

    # -- seeks ------------------------------------------------------------------------

    async def seeks(
        self, status: str = "open", *, game: str | None = None, player: str | None = None
    ) -> list[SeekRow]:
        sql = f"SELECT {SEEK_COLUMNS} FROM seeks WHERE status = ?"
        params: list[Any] = [status]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        if player is not None:
            sql += " AND player_id = ?"
            params.append(player)
        rows = await self._fetch(sql + " ORDER BY created, id", params)
        return [seek_from_row(r) for r in rows]

    async def seek(self, seek_id: str) -> SeekRow | None:
        r = await self._one(f"SELECT {SEEK_COLUMNS} FROM seeks WHERE id = ?", (seek_id,))
        return None if r is None else seek_from_row(r)

    async def seeks_of_room(self, room: str) -> list[SeekRow]:
        rows = await self._fetch(
            f"SELECT {SEEK_COLUMNS} FROM seeks WHERE room = ? ORDER BY created, id", (room,)
        )
        return [seek_from_row(r) for r in rows]

    async def orphan_seek_rooms(self, before: float, since: float | None = None) -> list[str]:
        sql = (
            "SELECT DISTINCT s.room FROM seeks s WHERE s.status = 'matched' "
            "AND s.room IS NOT NULL AND s.updated < ? "
        )
        params: list[Any] = [before]
        if since is not None:
            sql += "AND s.updated >= ? "
            params.append(since)
        sql += "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = s.room) ORDER BY s.room"
        return [str(r[0]) for r in await self._fetch(sql, params)]

    async def seeks_changed(self, since: float) -> list[SeekRow]:
        rows = await self._fetch(
            f"SELECT {SEEK_COLUMNS} FROM seeks WHERE updated >= ? AND ladder = ? "
            "ORDER BY created, id",
            (since, False),
        )
        return [seek_from_row(r) for r in rows]

    # -- tournaments ----------------------------------------------------------------------

    async def tournament(self, tournament_id: str) -> TournamentRow | None:
        rows = await self._fetch(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return TournamentRow(*rows[0]) if rows else None

    async def tournaments(
        self, statuses: Iterable[str] = (), limit: int = 200
    ) -> list[TournamentRow]:
        wanted = list(statuses)
        where = f"WHERE status IN ({', '.join('?' for _ in wanted)}) " if wanted else ""
        rows = await self._fetch(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments {where}"
            "ORDER BY created DESC, id LIMIT ?",
            (*wanted, limit),
        )
        return [TournamentRow(*r) for r in rows]

    async def tournament_games(self, tournament_id: str) -> list[str]:
        rows = await self._fetch(
            "SELECT game FROM tournament_games WHERE tournament = ? ORDER BY seq",
            (tournament_id,),
        )
        return [str(r[0]) for r in rows]


#: a new seek
INSERT_SEEK = f"INSERT INTO seeks ({SEEK_COLUMNS}) VALUES ({', '.join('?' * 17)})"


#: the columns of ``tournaments``, in TournamentRow's order
TOURNAMENT_COLUMNS = "id, status, state, version, created, updated"
_P_COLUMNS = ", ".join("p." + c for c in PLAYER_COLUMNS.split(", "))
_R_COLUMNS = ", ".join("r." + c for c in RATING_COLUMNS.split(", "))
_G_COLUMNS = ", ".join("g." + c for c in GAME_COLUMNS.split(", "))

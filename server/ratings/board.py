"""Leaderboards and a player's ratings, as the ``leaderboard`` and ``profile`` frames and
``GET /api/leaderboard`` and ``/api/player/NAME`` show them.

A leaderboard is one game's rule set in one pool (``human``: accounts; ``bot``: bot
accounts and house bots, each version apart), of the ratings with at least ``min_games``
rated games (``umpire serve --leaderboard-min-games``, 5 by default), best first: by
rating, then fewer games, then the player's id and version (a total order, so a rank never
depends on the database's mood). Provisional ratings are listed, marked ``provisional``.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.errors import ClientError
from server.ratings.plan import provisional
from server.ratings.rules import default_rule_set, rule_sets, system_of
from server.store.contract import POOLS, PlayerRow, RatingRow, Store
from server.wire.frames import LeaderboardEntry, LeaderboardFrame, PlayerInfo, PlayerRating

#: The fewest rated games a rating needs to appear on a leaderboard (by default).
MIN_GAMES = 5
#: The most entries one leaderboard answer lists.
MAX_LIMIT = 100
#: The most points of a rating's history a profile shows.
HISTORY_POINTS = 500


@dataclass(frozen=True, slots=True)
class BoardQuery:
    """A checked leaderboard request: a rated game, one of its rule sets, a pool."""

    game: str
    rules: str
    pool: str
    limit: int = MAX_LIMIT

    @classmethod
    def check(
        cls, game: str, rules: str | None = None, pool: str = "human", limit: int = MAX_LIMIT
    ) -> BoardQuery:
        """The query, or :class:`ClientError` saying what is wrong with it (``bad_options``
        for an unknown game, rule set, pool or limit; ``unsupported`` for a game that is
        never rated)."""
        if system_of(game) is None:
            raise ClientError("unsupported", f"{game!r} is not a rated game: no leaderboard")
        known = rule_sets(game)
        if rules is None:
            rules = default_rule_set(game)
        if rules is None or rules not in known:
            raise ClientError(
                "bad_options", f"no rule set {rules!r} for {game}: choose one of {', '.join(known)}"
            )
        if pool not in POOLS:
            raise ClientError("bad_options", f"no pool {pool!r}: choose one of {', '.join(POOLS)}")
        if not 1 <= limit <= MAX_LIMIT:
            raise ClientError("bad_options", f"limit must be 1 to {MAX_LIMIT}, not {limit}")
        return cls(game, rules, pool, limit)


def player_info(player: PlayerRow) -> PlayerInfo:
    """A stored player's public identity."""
    return PlayerInfo(player.id, player.name, player.bot, player.kind)


def entries(game: str, rows: list[tuple[PlayerRow, RatingRow]]) -> list[LeaderboardEntry]:
    """Leaderboard lines from the store's rows (already best first)."""
    return [
        LeaderboardEntry(
            rank=index,
            player=player_info(player),
            version=row.key.version,
            rating=row.rating.rating,
            deviation=row.rating.deviation,
            games=row.rating.games,
            provisional=provisional(game, row.rating.deviation),
        )
        for index, (player, row) in enumerate(rows, start=1)
    ]


async def leaderboard(store: Store, query: BoardQuery, *, min_games: int) -> LeaderboardFrame:
    """The ``leaderboard`` frame of a checked query."""
    rows = await store.leaderboard(
        query.game, query.rules, query.pool, min_games=min_games, limit=query.limit
    )
    return LeaderboardFrame(
        game=query.game,
        rules=query.rules,
        pool=query.pool,
        min_games=min_games,
        entries=entries(query.game, rows),
    )


async def player_ratings(store: Store, player_id: str) -> list[PlayerRating]:
    """A player's ratings with their histories, for its profile: by game, rule set and
    version."""
    rows = sorted(
        await store.ratings(player_id), key=lambda r: (r.key.game, r.key.rules, r.key.version)
    )
    found = []
    for row in rows:
        changes = await store.rating_history(row.key, HISTORY_POINTS)
        found.append(
            PlayerRating(
                game=row.key.game,
                rules=row.key.rules,
                version=row.key.version,
                rating=row.rating.rating,
                deviation=row.rating.deviation,
                games=row.rating.games,
                provisional=provisional(row.key.game, row.rating.deviation),
                history=[(change.at, change.after.rating) for change in changes],
            )
        )
    return found

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
from server.store.contract import POOLS, PlayerRow, RatingKey, RatingRow, Store
from server.wire.frames import LeaderboardEntry, LeaderboardFrame, PlayerInfo, PlayerRating

#: The fewest rated games a rating needs to appear on a leaderboard (by default).
MIN_GAMES = 5
#: The most entries one leaderboard answer lists.
MAX_LIMIT = 100
#: The most points of a rating's history a profile shows.
HISTORY_POINTS = 500
#: The most versions of one bot a leaderboard lists (and a profile shows per game and rule
#: set): its latest by use (``RatingRow.updated``), so one bot account reporting many
#: ``bot_version``s cannot flood the bot pool, nor make a profile read hundreds of
#: histories.
VERSIONS_SHOWN = 5


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


def latest_versions(rows: list[RatingRow]) -> list[RatingRow]:
    """Of one player's ratings, the :data:`VERSIONS_SHOWN` latest by use per game and rule
    set (ties by version), in the order given."""
    by_rules: dict[tuple[str, str], list[RatingRow]] = {}
    for row in rows:
        by_rules.setdefault((row.key.game, row.key.rules), []).append(row)
    kept: set[RatingKey] = set()
    for group in by_rules.values():
        group = sorted(group, key=lambda r: (-r.updated, r.key.version))
        kept.update(r.key for r in group[:VERSIONS_SHOWN])
    return [row for row in rows if row.key in kept]


async def _shown(
    store: Store, rows: list[tuple[PlayerRow, RatingRow]]
) -> list[tuple[PlayerRow, RatingRow]]:
    """The leaderboard rows without a bot's versions beyond its latest few."""
    allowed: dict[str, set[RatingKey]] = {}
    for player, row in rows:
        if player.bot and player.id not in allowed:
            theirs = [r for r in await store.ratings(player.id) if r.key.game == row.key.game]
            allowed[player.id] = {r.key for r in latest_versions(theirs)}
    return [(p, r) for p, r in rows if not p.bot or r.key in allowed[p.id]]


async def leaderboard(store: Store, query: BoardQuery, *, min_games: int) -> LeaderboardFrame:
    """The ``leaderboard`` frame of a checked query."""
    fetch = query.limit
    while True:
        found = await store.leaderboard(
            query.game, query.rules, query.pool, min_games=min_games, limit=fetch
        )
        rows = await _shown(store, found) if query.pool == "bot" else found
        # (a bot's older versions were left out: read further, a few times at most)
        if len(rows) >= query.limit or len(found) < fetch or fetch >= 8 * query.limit:
            break
        fetch *= 2
    rows = rows[: query.limit]
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
        latest_versions(await store.ratings(player_id)),
        key=lambda r: (r.key.game, r.key.rules, r.key.version),
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

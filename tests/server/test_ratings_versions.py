"""A bot's leaderboard lines and profile ratings are capped at its latest versions by use
(``server.ratings.board.VERSIONS_SHOWN``): a bot reporting many versions cannot flood the
bot pool's leaderboard, nor make a profile query hundreds of histories."""

from __future__ import annotations

from typing import Any

from server.ratings.board import VERSIONS_SHOWN, BoardQuery, leaderboard, player_ratings
from server.store.contract import PlayerRow, Rating, RatingKey, RatingRow

FLOODER = PlayerRow("p-flood", "flood", True, 1.0, kind="bot", owner="p-x")
HOUSE = PlayerRow("bot-kriegspiel-random", "kriegspiel-random", True, 1.0, kind="house")


def row(player: str, version: str, rating: float, updated: float) -> RatingRow:
    key = RatingKey(player, version, "kriegspiel", "wild16")
    return RatingRow(key, "bot", Rating(rating, 60.0, 0.06, 9), updated)


class FakeStore:
    """The reads the board makes, over a fixed list of ratings."""

    def __init__(self, rows: list[tuple[PlayerRow, RatingRow]]) -> None:
        self.rows = sorted(rows, key=lambda pr: -pr[1].rating.rating)
        self.histories = 0

    async def leaderboard(
        self, game: str, rules: str, pool: str, *, min_games: int, limit: int = 100
    ) -> list[tuple[PlayerRow, RatingRow]]:
        return self.rows[:limit]

    async def ratings(self, player_id: str) -> list[RatingRow]:
        return [r for p, r in self.rows if p.id == player_id]

    async def rating_history(self, key: RatingKey, limit: int = 500) -> list[Any]:
        self.histories += 1
        return []


def flood() -> FakeStore:
    # 20 versions; the best-rated are the oldest (used long ago)
    rows = [(FLOODER, row(FLOODER.id, f"v{i}", 2000.0 - i, updated=float(i))) for i in range(20)]
    rows.append((HOUSE, row(HOUSE.id, "1.0", 1500.0, 5.0)))
    return FakeStore(rows)


async def test_the_leaderboard_shows_a_bots_latest_versions_only() -> None:
    store = flood()
    query = BoardQuery.check("kriegspiel", "wild16", "bot", limit=10)
    frame = await leaderboard(store, query, min_games=1)  # type: ignore[arg-type]
    flooder = [e.version for e in frame.entries if e.player.id == FLOODER.id]
    assert flooder == [f"v{i}" for i in range(20 - VERSIONS_SHOWN, 20)]
    assert [e.player.id for e in frame.entries][-1] == HOUSE.id
    assert [e.rank for e in frame.entries] == list(range(1, len(frame.entries) + 1))


async def test_a_profile_shows_a_bots_latest_versions_only() -> None:
    store = flood()
    ratings = await player_ratings(store, FLOODER.id)  # type: ignore[arg-type]
    assert sorted(r.version for r in ratings) == sorted(f"v{i}" for i in range(15, 20))
    assert store.histories == VERSIONS_SHOWN

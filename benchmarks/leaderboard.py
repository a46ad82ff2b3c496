"""The leaderboard's top-100 query on SQLite, on a store of 100,000 rated players and
1,000,000 rated games.

Builds (once; ``--db`` keeps it for later runs) a store of the server's schema holding
``--players`` players (a tenth of them bot accounts) and ``--games`` finished two-seat
games, each rated (four in five Kriegspiel ``wild16``, one in five Perudo ``classic``;
humans play humans, bots bots), with their ``games``, ``game_players`` and
``rating_changes`` rows and every player's current ``ratings`` (an Elo-like toy update
from hidden skills: only the shape of the data matters here). Then times
:meth:`SqliteStore.leaderboard` (``kriegspiel``, ``wild16``, ``human``, at least 5
games, the best 100) through the store as the server calls it (its read connection, a
thread hop each way), and the same SQL on a plain ``sqlite3`` connection; also a player
page's reads (``ratings`` and a 500-point ``rating_history``). Prints SQLite's query plan:
the leaderboard reads the first rows of one range of the index ``ratings_board``, no sort.

    python -m benchmarks.leaderboard --db /tmp/leaderboard.db
"""

from __future__ import annotations

import asyncio
import math
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from benchmarks.common import arguments, machine
from server.store.contract import GAME_COLUMNS, GameRow, RatingKey, game_values
from server.store.sql import CHANGE_COLUMNS, RATING_COLUMNS
from server.store.sqlite import SqliteStore

#: (game, rules, system) of the rated games, and how often each is played
RULE_SETS = (("kriegspiel", "wild16", "glicko2"), ("perudo", "classic", "openskill"))
RULE_WEIGHTS = (0.8, 0.2)
CHUNK = 50_000


def _chunks(rows: Iterator[tuple[Any, ...]]) -> Iterator[list[tuple[Any, ...]]]:
    chunk: list[tuple[Any, ...]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def build(path: str, players: int, games: int, seed: int) -> None:
    """Fill a new store at ``path`` (migrated by the store itself) with the data set."""
    asyncio.run(_migrate(path))
    rng = random.Random(seed)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("PRAGMA cache_size=-262144")
    ids = [f"p{i:06d}" for i in range(players)]
    bots = {i for i in range(players) if i % 10 == 0}
    skill = [rng.gauss(0.0, 1.0) for _ in range(players)]
    humans = [i for i in range(players) if i not in bots]
    bot_list = sorted(bots)
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO players (id, name, bot, created, kind, owner, account) VALUES (?,?,?,?,?,?,?)",
        (
            (
                ids[i],
                f"Player {i}",
                i in bots,
                1.0,
                "bot" if i in bots else "account",
                ids[i + 1] if i in bots else None,
                f"player {i}",
            )
            for i in range(players)
        ),
    )
    db.execute("COMMIT")
    # key -> [rating, deviation, games, updated]
    current: dict[tuple[int, int], list[float]] = {}
    started = time.monotonic()

    def rows() -> Iterator[tuple[tuple[Any, ...], list[tuple[Any, ...]], list[tuple[Any, ...]]]]:
        for g in range(games):
            pool = bot_list if rng.random() < 0.1 else humans
            a, b = rng.sample(pool, 2)
            rule = 0 if rng.random() < RULE_WEIGHTS[0] else 1
            game, rules, system = RULE_SETS[rule]
            at = 1_000_000.0 + g * 30.0
            a_wins = rng.random() < 1.0 / (1.0 + math.exp(skill[b] - skill[a]))
            ranks = [1, 2] if a_wins else [2, 1]
            game_id = f"g{g:07d}"
            version = "1.0" if a in bots else ""
            row = GameRow(
                id=game_id,
                game=game,
                options={"rules": rules} if game == "kriegspiel" else {"preset": rules},
                settings={},
                host=None,
                invite=None,
                public=True,
                seats=[ids[a], ids[b]],
                status="finished",
                seed=b"\x00" * 32,
                seed_sha256="00" * 32,
                seed_revealed=True,
                result={"ranks": ranks},
                reason="checkmate",
                created=at - 600,
                started=at - 590,
                finished=at,
                rated={
                    "system": system,
                    "rules": rules,
                    "versions": [version, version],
                    "pools": ["bot" if a in bots else "human"] * 2,
                },
            )
            befores = [current.get((p, rule), [1500.0, 350.0, 0, 0.0]) for p in (a, b)]
            expected = 1.0 / (1.0 + 10 ** ((befores[1][0] - befores[0][0]) / 400))
            delta = 32.0 * ((1.0 if a_wins else 0.0) - expected)
            changes = []
            for seat, (p, before, sign) in enumerate(zip((a, b), befores, (1, -1), strict=True)):
                after = [
                    before[0] + sign * delta,
                    max(45.0, before[1] * 0.93),
                    int(before[2]) + 1,
                    at,
                ]
                current[(p, rule)] = after
                changes.append(
                    (
                        2 * g + seat + 1,
                        game_id,
                        seat,
                        ids[p],
                        version,
                        game,
                        rules,
                        row.rated["pools"][0],  # type: ignore[index]
                        before[0],
                        before[1],
                        0.06,
                        int(before[2]),
                        after[0],
                        after[1],
                        0.06,
                        int(after[2]),
                        at,
                    )
                )
            seats = [(game_id, 0, ids[a]), (game_id, 1, ids[b])]
            yield game_values(row), seats, changes

    marks = ",".join("?" * len(GAME_COLUMNS.split(", ")))
    db.execute("BEGIN")
    games_rows: list[tuple[Any, ...]] = []
    seat_rows: list[tuple[Any, ...]] = []
    change_rows: list[tuple[Any, ...]] = []

    def flush() -> None:
        db.executemany(f"INSERT INTO games ({GAME_COLUMNS}) VALUES ({marks})", games_rows)
        db.executemany("INSERT INTO game_players VALUES (?,?,?)", seat_rows)
        db.executemany(
            f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES ({','.join('?' * 17)})",
            change_rows,
        )
        games_rows.clear()
        seat_rows.clear()
        change_rows.clear()

    for game_row, seats, changes in rows():
        games_rows.append(game_row)
        seat_rows.extend(seats)
        change_rows.extend(changes)
        if len(games_rows) == CHUNK:
            flush()
    flush()
    db.executemany(
        f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
        (
            (
                ids[p],
                "1.0" if p in bots else "",
                RULE_SETS[rule][0],
                RULE_SETS[rule][1],
                "bot" if p in bots else "human",
                value[0],
                value[1],
                0.06,
                int(value[2]),
                value[3],
            )
            for (p, rule), value in current.items()
        ),
    )
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    print(f"built {path}: {players} players, {games} games in {time.monotonic() - started:.0f} s")


async def _migrate(path: str) -> None:
    store = SqliteStore(path)
    await store.open()
    await store.close()


def _counts(path: str) -> tuple[int, int]:
    db = sqlite3.connect(path)
    try:
        players = db.execute("SELECT count(*) FROM players").fetchone()[0]
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0, 0
    finally:
        db.close()
    return int(players), int(games)


def _summary(name: str, seconds: list[float]) -> str:
    ms = sorted(1000 * s for s in seconds)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    return (
        f"{name}: median {statistics.median(ms):.3f} ms, p90 {p90:.3f} ms, "
        f"max {ms[-1]:.3f} ms ({len(ms)} queries)"
    )


async def _timed(call: Callable[[], Any], queries: int) -> list[float]:
    out = []
    for _ in range(queries):
        began = time.perf_counter()
        await call()
        out.append(time.perf_counter() - began)
    return out


async def measure(path: str, queries: int, min_games: int, limit: int) -> None:
    """Time the leaderboard and a player page's reads through the store."""
    store = SqliteStore(path)
    await store.open()
    try:
        began = time.perf_counter()
        board = await store.leaderboard(
            "kriegspiel", "wild16", "human", min_games=min_games, limit=limit
        )
        first = time.perf_counter() - began
        assert len(board) == limit, len(board)
        times = await _timed(
            lambda: store.leaderboard(
                "kriegspiel", "wild16", "human", min_games=min_games, limit=limit
            ),
            queries,
        )
        bots = await _timed(
            lambda: store.leaderboard(
                "kriegspiel", "wild16", "bot", min_games=min_games, limit=limit
            ),
            queries,
        )
        top = board[0][1].key
        ratings = await _timed(lambda: store.ratings(top.player), queries)
        history = await _timed(
            lambda: store.rating_history(RatingKey(top.player, "", "kriegspiel", "wild16")),
            queries,
        )
    finally:
        await store.close()
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    sql = (
        "SELECT p.id, p.name, p.bot, p.created, p.kind, p.owner, r.* FROM ratings r "
        "JOIN players p ON p.id = r.player_id "
        "WHERE r.game = ? AND r.rules = ? AND r.pool = ? AND r.games >= ? "
        "ORDER BY r.rating DESC, r.games, r.player_id, r.version LIMIT ?"
    )
    params = ("kriegspiel", "wild16", "human", min_games, limit)
    plan = [r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql, params)]
    raw = []
    for _ in range(queries):
        began = time.perf_counter()
        db.execute(sql, params).fetchall()
        raw.append(time.perf_counter() - began)
    rated = db.execute(
        "SELECT count(*) FROM ratings WHERE game = 'kriegspiel' AND rules = 'wild16' "
        "AND pool = 'human' AND games >= ?",
        (min_games,),
    ).fetchone()[0]
    db.close()
    print(machine())
    print(f"top {limit} of {rated} human wild16 ratings with at least {min_games} games")
    print(f"first query (a newly opened store): {1000 * first:.3f} ms")
    print(_summary("leaderboard through the store", times))
    print(_summary("leaderboard, plain sqlite3", raw))
    print(_summary("bot leaderboard through the store", bots))
    print(_summary("a player's ratings", ratings))
    print(_summary("a player's rating history (500)", history))
    print("query plan: " + " / ".join(plan))


def main() -> None:
    """Parse the command line, build the store if needed, and time the queries."""
    parser = arguments(__doc__, seed=1)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=200, help="timed queries of each kind")
    parser.add_argument("--min-games", type=int, default=5)
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--db", help="the store to build, or reuse when already built")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = options.db or str(Path(tmp) / "leaderboard.db")
        if _counts(path) != (options.players, options.games):
            Path(path).unlink(missing_ok=True)
            build(path, options.players, options.games, options.seed)
        asyncio.run(measure(path, options.queries, options.min_games, options.limit))


if __name__ == "__main__":
    main()

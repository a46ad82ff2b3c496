"""Ratings on a real store: rated ends through plan_for, leaderboards and profile ratings
(server/ratings/board.py), ``umpire ratings rebuild`` (rebuild.py), and the leaderboard
over the protocol and GET /api/leaderboard and /api/player/NAME."""

from __future__ import annotations

import asyncio
import io
import json
import random
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from server.cli import main
from server.export.reader import export_jsonl
from server.games import engine
from server.games.base import Record, seed_commitment
from server.net.app import UmpireServer
from server.players.accounts import account_key
from server.players.throttle import Buckets, Rate
from server.ratings import board
from server.ratings.plan import decide, plan_for
from server.ratings.rebuild import rebuild, recompute
from server.store import journal
from server.store.contract import GameRow, PlayerRow, Store, open_store

ACCOUNTS = [f"player{i}" for i in range(6)]
HOUSE = "bot-kriegspiel-random"


class Seat:
    """What decide() reads of a seat's holder."""

    def __init__(self, id: str, kind: str, version: str = "") -> None:
        self.id, self.kind, self.version = id, kind, version


async def add_players(store: Store) -> None:
    for i, name in enumerate(ACCOUNTS):
        await store.add_player(PlayerRow(f"p{i}", name, False, 1.0), f"hash{i}")
        await store.claim(f"p{i}", name, account_key(name), "argon2-hash")
    await store.add_player(
        PlayerRow(HOUSE, "kriegspiel-random", True, 1.0, kind="house"), "house-hash"
    )


def game(n: int, game: str, seats: list[Seat], ranks: list[int]) -> GameRow:
    options: dict[str, Any] = {"seats": len(seats)} if game == "perudo" else {}
    seed = f"seed {n}".encode()
    return GameRow(
        id=f"g{n:03}",
        game=game,
        options=options,
        settings={},
        host=None,
        invite=None,
        public=True,
        seats=[seat.id for seat in seats],
        status="finished",
        seed=seed,
        seed_sha256=seed_commitment(seed),
        created=100.0 + n,
        started=100.0 + n,
        finished=100.5 + n,
        seed_revealed=True,
        result={"ranks": ranks, "winners": [], "reason": "test"},
        rated=decide(game, options, seats, None),
    )


async def play(store: Store, games: int = 40, seed: int = 7) -> None:
    """Rated Kriegspiel (accounts and a house bot) and Perudo games, finished."""
    rng = random.Random(seed)
    people = [Seat(f"p{i}", "account") for i in range(len(ACCOUNTS))]
    house = Seat(HOUSE, "house", "1.0")
    for n in range(games):
        if n % 3 == 2:
            seats = rng.sample(people, 4)
            ranks = rng.sample([1, 2, 3, 4], 4)
            row = game(n, "perudo", seats, ranks)
        else:
            seats = [*rng.sample(people, 1), house] if n % 5 == 0 else rng.sample(people, 2)
            ranks = rng.choice([[1, 2], [2, 1], [1, 1]])
            row = game(n, "kriegspiel", seats, ranks)
        assert row.rated is not None
        await store.save_game(replace(row, status="playing", result=None, finished=None))
        changes = await store.finish_game(row, [], {}, plan_for(row))
        assert len(changes) == len(seats)


@pytest.fixture(params=["sqlite", "pg"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database: a SQLite file, or one on PostgreSQL (skipped without it)."""
    if request.param == "pg":
        return str(request.getfixturevalue("pg_dsn"))
    return str(tmp_path / "umpire.db")


@pytest.fixture
async def store(where: str) -> AsyncIterator[Store]:
    """A store with the players."""
    store = open_store(where)
    await store.open()
    await add_players(store)
    yield store
    await store.close()


async def test_the_leaderboard_and_a_players_ratings(store: Store) -> None:
    await play(store)
    query = board.BoardQuery.check("kriegspiel")
    frame = await board.leaderboard(store, query, min_games=3)
    assert (frame.game, frame.rules, frame.pool, frame.min_games) == (
        "kriegspiel",
        "wild16",
        "human",
        3,
    )
    ratings = [entry.rating for entry in frame.entries]
    assert ratings == sorted(ratings, reverse=True) and len(ratings) == len(ACCOUNTS)
    assert [entry.rank for entry in frame.entries] == list(range(1, len(ratings) + 1))
    assert all(entry.games >= 3 and entry.player.kind == "account" for entry in frame.entries)
    bots = await board.leaderboard(store, replace(query, pool="bot"), min_games=1)
    assert [(e.player.id, e.version) for e in bots.entries] == [(HOUSE, "1.0")]
    assert (await board.leaderboard(store, query, min_games=1000)).entries == []
    perudo = await board.leaderboard(store, board.BoardQuery.check("perudo"), min_games=1)
    assert perudo.rules == "piatnik" and perudo.entries

    mine = await board.player_ratings(store, "p0")
    assert [(r.game, r.rules) for r in mine] == [("kriegspiel", "wild16"), ("perudo", "piatnik")]
    for rating in mine:
        assert len(rating.history) == rating.games
        assert rating.history[-1][1] == rating.rating
        times = [at for at, _ in rating.history]
        assert times == sorted(times)


def test_bad_leaderboard_queries() -> None:
    from server.errors import ClientError

    cases: list[tuple[str, str | None, str, int, str]] = [
        ("goofspiel", None, "human", 100, "unsupported"),
        ("nonsense", None, "human", 100, "unsupported"),
        ("kriegspiel", "piatnik", "human", 100, "bad_options"),
        ("kriegspiel", None, "robots", 100, "bad_options"),
        ("kriegspiel", None, "human", 0, "bad_options"),
    ]
    for game_name, rules, pool, limit, code in cases:
        with pytest.raises(ClientError) as caught:
            board.BoardQuery.check(game_name, rules, pool, limit)
        assert caught.value.code == code


async def test_rebuild_gets_identical_numbers_and_repairs_a_difference(store: Store) -> None:
    await play(store)
    report = await rebuild(store, write=False)
    assert report.identical and report.games == 40 and not report.written, report.lines()
    changes = await recompute(store)
    assert [c.n for c in changes] == list(range(1, len(changes) + 1))
    # a hand-made difference: one change's after, and so every rating after it
    tampered = list(changes)
    tampered[5] = replace(tampered[5], after=replace(tampered[5].after, rating=9999.0))
    await store.replace_ratings(tampered)
    report = await rebuild(store, write=False)
    assert not report.identical and report.differences >= 1
    assert "9999.0" in "\n".join(report.lines())
    report = await rebuild(store, write=True)
    assert report.written
    assert (await rebuild(store, write=False)).identical


async def test_umpire_ratings_rebuild(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "cli.db")
    store = open_store(path)
    await store.open()
    await add_players(store)
    await play(store, games=9)
    changes = await recompute(store)
    await store.replace_ratings(changes[:-1])  # the last change lost
    await store.close()

    def run(*args: str) -> int:
        return main(["ratings", "rebuild", "--db", path, *args])

    assert await asyncio.to_thread(run, "--check") == 1
    assert "differences" in capsys.readouterr().out
    assert await asyncio.to_thread(run) == 0
    assert "written" in capsys.readouterr().out
    assert await asyncio.to_thread(run, "--check") == 0
    assert "9 rated games, 24 rating changes: identical" in capsys.readouterr().out
    assert (
        await asyncio.to_thread(main, ["ratings", "rebuild", "--db", str(tmp_path / "no.db")]) == 1
    )


def http_get(port: int, path: str) -> tuple[int, dict[str, Any]]:
    """(status, JSON body) of a GET on loopback."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            assert response.headers["Content-Type"] == "application/json"
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        assert exc.headers["Content-Type"] == "application/json"
        return exc.code, json.loads(exc.read())


async def test_the_http_api_and_the_leaderboard_message(
    make_server: Any, db_path: str, connect: Any
) -> None:
    seeded = open_store(db_path)
    await seeded.open()
    await add_players(seeded)
    await play(seeded)
    await seeded.close()
    server: UmpireServer = await make_server(leaderboard_min_games=2)
    ana = await connect("ana", port=server.port)
    frame = await ana.request("leaderboard", "leaderboard", game="perudo", pool="human", limit=3)
    assert (frame["rules"], frame["min_games"], len(frame["entries"])) == ("piatnik", 2, 3)
    await ana.send(type="leaderboard", game="kriegspiel", rules="classic")
    await ana.error("bad_options")
    profile = await ana.request("profile", "profile", name="player1")
    assert profile["player"]["id"] == "p1" and profile["ratings"]
    await ana.send(type="profile", name="ana")  # a guest's name is not unique
    await ana.error("no_such_player")

    def get(path: str) -> tuple[int, dict[str, Any]]:
        return http_get(server.port, path)

    status, body = await asyncio.to_thread(get, "/api/leaderboard?game=kriegspiel&rules=wild16")
    assert status == 200 and body["type"] == "leaderboard" and body["min_games"] == 2
    assert len(body["entries"]) == len(ACCOUNTS)
    first = body["entries"][0]
    assert set(first) == {
        "rank",
        "player",
        "version",
        "rating",
        "deviation",
        "games",
        "provisional",
    }
    status, body = await asyncio.to_thread(get, "/api/leaderboard?game=kriegspiel&pool=bot&limit=1")
    assert status == 200 and [e["player"]["id"] for e in body["entries"]] == [HOUSE]
    for bad in [
        "/api/leaderboard",
        "/api/leaderboard?game=kriegspiel&limit=x",
        "/api/leaderboard?game=kriegspiel&limit=101",
        "/api/leaderboard?game=kriegspiel&pool=robots",
        "/api/leaderboard?game=kriegspiel&rules=nope",
        "/api/leaderboard?game=kriegspiel&game=perudo",
        "/api/leaderboard?game=kriegspiel&colour=red",
        "/api/leaderboard?game=goofspiel",
        "/api/player/" + "x" * 65,
        # bad bytes: never a 500 (nor an ERROR in the log)
        "/api/player/%ff",
        "/api/player/%ff%fe",
        "/api/player/%c3",
        "/api/player/%ed%a0%80",
        "/api/player/%00",
        "/api/player/a%2Fb",
        "/api/player/%e2%80%ae",
        "/api/leaderboard?game=%ff",
        "/api/leaderboard?game=kriegspiel&limit=%ff",
        "/api/leaderboard?game=kriegspiel&rules=%ed%a0%80",
        "/api/leaderboard?%ff=1",
    ]:
        status, body = await asyncio.to_thread(get, bad)
        assert status == 400 and set(body) == {"error", "message"}, bad
    status, body = await asyncio.to_thread(get, "/api/player/nobody")
    assert status == 404 and body["error"] == "no_such_player"
    status, body = await asyncio.to_thread(get, "/api/nothing")
    assert status == 404

    name = urllib.parse.quote("PLAYER0")  # names are found by their key
    status, body = await asyncio.to_thread(get, f"/api/player/{name}")
    assert status == 200 and body["type"] == "profile" and body["player"]["id"] == "p0"
    assert {r["game"] for r in body["ratings"]} == {"kriegspiel", "perudo"}
    assert all(len(r["history"]) == r["games"] for r in body["ratings"])
    status, body = await asyncio.to_thread(get, "/api/player/kriegspiel-random")
    assert (
        status == 200 and body["player"]["id"] == HOUSE and body["ratings"][0]["version"] == "1.0"
    )


async def resigned_game(store: Store, n: int, seats: list[Seat]) -> GameRow:
    """A real rated Kriegspiel game in the log: white resigns at once."""
    eng = engine("kriegspiel")
    seed = f"a seed of game {n} long enough".encode()
    game_, opening = eng.new_game(eng.make_config({}), seed)
    events = [*opening, *game_.apply_record(Record(0, "resign"))]
    causes: list[int | None] = [None] * len(opening) + [1]
    assert game_.outcome is not None
    row = replace(game(n, "kriegspiel", seats, list(game_.outcome.ranks)), seed=seed)
    row = replace(row, seed_sha256=seed_commitment(seed), status="playing", result=None)
    entries = journal.finished_game(row, events, causes, [Record(0, "resign")], game_.outcome, {})
    await journal.record_finished(store, entries[:-1])
    end = entries[-1]
    assert isinstance(end, journal.Finish)
    assert await store.finish_game(end.row, end.events, end.stats, plan_for(end.row))
    return end.row


async def test_exports_carry_each_seats_rating_before_and_after(
    store: Store, tmp_path: Path
) -> None:
    people = [Seat(f"p{i}", "account") for i in range(3)]
    await resigned_game(store, 1, [people[0], people[1]])
    second = await resigned_game(store, 2, [people[1], people[2]])
    out = io.StringIO()
    assert await export_jsonl(store, out) == 2
    games = [json.loads(line) for line in out.getvalue().splitlines()]
    last = games[1]
    assert last["id"] == second.id and last["rated"]["rules"] == "wild16"
    p1, p2 = last["ratings"]
    assert (p1["player"], p1["seat"], p1["pool"], p2["player"]) == ("p1", 0, "human", "p2")
    assert p1["before"]["games"] == 1 and p1["before"]["rating"] > 1500.0  # won game 1
    assert p1["after"]["rating"] < p1["before"]["rating"]  # resigned game 2
    assert p2["before"] == {"rating": 1500.0, "deviation": 350.0, "volatility": 0.06, "games": 0}

    pl = pytest.importorskip("polars")
    pytest.importorskip("pyarrow")
    from server.export.parquet import export_parquet

    await export_parquet(store, tmp_path / "pq")
    table = pl.read_parquet(tmp_path / "pq" / "games.parquet").sort("game_id").to_dicts()
    assert table[1]["rated"] == "wild16"
    assert table[1]["rating_before"] == [p1["before"]["rating"], 1500.0]
    assert table[1]["rating_after"] == [p1["after"]["rating"], p2["after"]["rating"]]
    assert table[1]["deviation_after"] == [p1["after"]["deviation"], p2["after"]["deviation"]]
    decisions = pl.read_parquet(tmp_path / "pq" / "decisions.parquet").sort("game_id").to_dicts()
    assert [d["rating"] for d in decisions] == [1500.0, p1["before"]["rating"]]


async def test_the_http_api_is_rate_limited_per_address(make_server: Any) -> None:
    server = await make_server()
    server.api.buckets = Buckets(Rate(burst=3, every=60.0), 100)
    server.api.clock = lambda: 0.0  # (no refill)

    def get(path: str) -> tuple[int, dict[str, Any]]:
        return http_get(server.port, path)

    for _ in range(3):
        status, _body = await asyncio.to_thread(get, "/api/player/nobody")
        assert status == 404
    status, body = await asyncio.to_thread(get, "/api/leaderboard?game=kriegspiel")
    assert status == 429 and body["error"] == "rate_limited" and set(body) == {"error", "message"}

"""Self-play logging, JSONL/PGN export and fairness verification, on real SQLite files."""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import chess.pgn
import pytest

from bots.tools.arena import schedule
from bots.tools.cli import play_and_record
from server.cli import main, open_recorder
from server.export.reader import export_jsonl, export_pgn, logs, verify_game
from server.games.base import seed_commitment
from server.players.identity import Identities
from server.rooms.lobby import Lobby
from server.rooms.room import Timing
from server.store.contract import GameRow
from server.store.sqlite import SqliteStore
from tests.ports import free_port


async def selfplay(db: Path, game: str, bots: list[str], seats: int, games: int) -> None:
    options = {"seats": seats} if game == "perudo" else {}
    specs = schedule(game, options, bots, seats, games, "test")
    async with open_recorder(str(db)) as record:
        await play_and_record(specs, 1, record, {"source": "test"})


async def open_store(db: Path) -> SqliteStore:
    store = SqliteStore(str(db))
    await store.open()
    return store


async def test_selfplay_logs_games_that_export_and_verify(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    await selfplay(db, "perudo", ["perudo-random", "perudo-simple"], 3, 12)
    store = await open_store(db)
    try:
        out = io.StringIO()
        assert await export_jsonl(store, out) == 12
        lines = [json.loads(line) for line in out.getvalue().splitlines()]
        for game in lines:
            assert game["status"] == "finished" and game["game"] == "perudo"
            assert seed_commitment(bytes.fromhex(game["seed"])) == game["seed_sha256"]
            assert await verify_game(store, game["id"]) == []
            assert [e["seq"] for e in game["events"]] == list(range(1, len(game["events"]) + 1))
            dealt = 0
            for event in game["events"]:
                assert len(event["seats"]) == 3
                if event["truth"]["type"] == "round_started":
                    dealt += 1
                    for seat, view in enumerate(event["seats"]):
                        assert view["dice"] == event["truth"]["dice"][seat]
                    assert "dice" not in event["spectator"]
            assert dealt >= 1
            assert game["players"][0]["id"].startswith("bot-")
        stats = await store.stats("bot-perudo-simple")
        assert stats["perudo"]["games"] == 18  # 12 games x 3 seats, shared by two bots
    finally:
        await store.close()


async def test_verify_catches_a_tampered_die_and_a_swapped_seed(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    await selfplay(db, "perudo", ["perudo-random"], 4, 2)
    with sqlite3.connect(db) as conn:
        game_id, other_id = (r[0] for r in conn.execute("SELECT id FROM games ORDER BY id"))
        truth = json.loads(
            conn.execute(
                "SELECT truth FROM events WHERE game_id = ? AND seq = 2", (game_id,)
            ).fetchone()[0]
        )
        assert truth["type"] == "round_started"
        truth["dice"][0][0] = truth["dice"][0][0] % 6 + 1
        conn.execute(
            "UPDATE events SET truth = ? WHERE game_id = ? AND seq = 2",
            (json.dumps(truth), game_id),
        )
        conn.execute("UPDATE games SET seed = ? WHERE id = ?", (b"another seed", other_id))
    store = await open_store(db)
    try:
        tampered = await verify_game(store, game_id)
        assert any("differs from the replay" in p for p in tampered)
        assert any("round 1, seat 0" in p for p in tampered)
        swapped = await verify_game(store, other_id)
        assert any("does not match the commitment" in p for p in swapped)
    finally:
        await store.close()


async def test_games_in_progress_are_never_exported(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    store = await open_store(db)
    try:
        secret = b"the seed of a game still being played"
        row = GameRow(
            id="live1",
            game="perudo",
            options={"seats": 2},
            settings={},
            host=None,
            invite=None,
            public=True,
            seats=[None, None],
            status="playing",
            seed=secret,
            seed_sha256=seed_commitment(secret),
            created=0.0,
        )
        await store.save_game(row)
        out = io.StringIO()
        assert await export_jsonl(store, out) == 0
        assert secret.hex() not in out.getvalue()
        problems = await verify_game(store, "live1")
        assert problems == ["no finished game 'live1' in this knowledge base"]
    finally:
        await store.close()


async def test_kriegspiel_pgn_export_reads_back(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    await selfplay(db, "kriegspiel", ["kriegspiel-random"], 2, 2)
    store = await open_store(db)
    try:
        out = io.StringIO()
        assert await export_pgn(store, out) == 2
        stream = io.StringIO(out.getvalue())
        games = [chess.pgn.read_game(stream) for _ in range(2)]
        for game in games:
            assert game is not None and game.headers["White"] == "kriegspiel-random"
            assert not game.errors
            assert len(list(game.mainline_moves())) > 0
        # the Date is the day each game started (UTC), as the web client's PGN writes it
        starts = [log.row.started async for log in logs(store)]
        assert all(started is not None for started in starts)
        dates = [
            datetime.fromtimestamp(started, UTC).strftime("%Y.%m.%d")
            for started in starts
            if started is not None
        ]
        assert [game.headers["Date"] for game in games if game is not None] == dates
    finally:
        await store.close()


def test_cli_selfplay_export_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.db")
    assert (
        main(
            [
                "selfplay",
                "--game",
                "perudo",
                "--bots",
                "perudo-random",
                "--seats",
                "3",
                "--games",
                "4",
                "--db",
                db,
                "--seed",
                "x",
            ]
        )
        == 0
    )
    assert "4 perudo games logged" in capsys.readouterr().out
    out = tmp_path / "games.jsonl"
    assert main(["export", "--db", db, "--out", str(out)]) == 0
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert len(ids) == 4
    assert main(["verify", "--db", db, *ids]) == 0
    assert capsys.readouterr().out.count("verified:") == 4
    assert main(["verify", "--db", db, "nope"]) == 1
    assert main(["export", "--db", str(tmp_path / "missing.db")]) == 1
    assert "no knowledge base" in capsys.readouterr().err


def test_cli_tournament_db_logs_every_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.db"
    argv = ["tournament", "--game", "kriegspiel", "--bots", "kriegspiel-random", "--games", "2"]
    assert main([*argv, "--seed", "s", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT status, settings FROM games ORDER BY created").fetchall()
    conn.close()
    assert [(status, json.loads(s)["source"]) for status, s in rows] == [
        ("finished", "tournament")
    ] * 2


def test_bots_without_a_store_refuse_db_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from bots.tools.cli import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())  # no services: the bots alone know no knowledge base
    argv = ["tournament", "--game", "perudo", "--bots", "perudo-random", "--db", "x.db"]
    args = parser.parse_args(argv)
    assert args.func(args) == 2
    assert "--db and --mqtt need the umpire server" in capsys.readouterr().err
    args = parser.parse_args(
        ["selfplay", "--game", "perudo", "--bots", "perudo-random", "--db", "x"]
    )
    assert args.func(args) == 2


def test_ray_without_ray_installed_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # as if the ray extra were not installed
    argv = ["--game", "perudo", "--bots", "perudo-random", "--games", "1", "--ray"]
    assert main(["selfplay", *argv, "--db", str(tmp_path / "kb.db")]) == 1
    assert "the ray extra of umpire-games (pip install -e '.[ray]'" in capsys.readouterr().err
    assert main(["tournament", *argv]) == 1
    assert "--ray needs Ray" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # a tournament is played here, on a server or on Ray
        main(["tournament", *argv, "--server", "ws://127.0.0.1:1"])
    assert "not allowed with argument" in capsys.readouterr().err


async def test_a_repeated_selfplay_run_logs_each_scheduled_game_once(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    await selfplay(db, "perudo", ["perudo-random"], 2, 3)
    await selfplay(db, "perudo", ["perudo-random"], 2, 5)  # the same seed: 3 known, 2 new
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT id, settings FROM games ORDER BY created").fetchall()
    conn.close()
    assert [json.loads(s)["index"] for _, s in rows] == [0, 1, 2, 3, 4]
    assert len({game_id for game_id, _ in rows}) == 5


def test_ray_at_an_address_where_nothing_listens_fails_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()  # nothing listens there
    argv = ["selfplay", "--game", "perudo", "--bots", "perudo-random", "--games", "1"]
    argv += ["--db", str(tmp_path / "kb.db"), "--ray", f"127.0.0.1:{port}"]
    assert main(argv) == 1  # Ray itself would wait for ever
    assert f"cannot reach the Ray cluster at 127.0.0.1:{port}" in capsys.readouterr().err


class _Killed(Exception):
    """The driver dying between a game's steps and its finish."""


async def test_a_game_half_written_by_a_killed_driver_is_written_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: a driver killed while it writes a game leaves it ``playing`` (its steps
    stored, not its end); the next run with the same seed replaces it whole, counts
    nothing twice, and the server never rebuilds it as a room."""
    db, clean = tmp_path / "kb.db", tmp_path / "clean.db"
    await selfplay(clean, "perudo", ["perudo-random"], 2, 3)
    finishes = [0]
    real = SqliteStore.finish_game

    async def dies_at_the_second(self: SqliteStore, *args: Any, **kwargs: Any) -> Any:
        finishes[0] += 1
        if finishes[0] == 2:
            raise _Killed
        return await real(self, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(SqliteStore, "finish_game", dies_at_the_second)
        with pytest.raises(_Killed):
            await selfplay(db, "perudo", ["perudo-random"], 2, 3)
    with sqlite3.connect(db) as conn:
        half = conn.execute("SELECT id FROM games WHERE status = 'playing'").fetchall()
        steps = conn.execute("SELECT count(*) FROM actions WHERE game_id = ?", half[0]).fetchone()
    conn.close()
    assert len(half) == 1 and steps[0] > 0
    store = await open_store(db)
    try:  # the server's recovery leaves a self-play game alone
        lobby = Lobby(store, Identities(store), Timing())
        assert await lobby.restore() == 0 and await lobby.get(half[0][0]) is None
    finally:
        await store.close()
    await selfplay(db, "perudo", ["perudo-random"], 2, 3)
    tables = ("games", "actions", "events", "player_stats")
    kept = {}
    for path in (db, clean):
        with sqlite3.connect(path) as conn:
            kept[path] = [
                conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables
            ] + [
                conn.execute("SELECT id, status FROM games ORDER BY id").fetchall(),
                conn.execute("SELECT * FROM player_stats ORDER BY 1, 2, 3").fetchall(),
            ]
        conn.close()
    assert kept[db] == kept[clean]
    assert await asyncio.to_thread(main, ["verify", "--db", str(db), "--all"]) == 0

"""Signed games over real sockets (issue 32): the key file made beside the database on
first start (mode 0600), its public key in ``welcome`` and ``GET /api/signing-keys``, the
final hash and its signature in the last ``room`` frame, checked with that public key;
``umpire verify`` passes the game and catches it once edited."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from typing import Any

from server.export.reader import verify_game
from server.net.app import UmpireServer
from server.store import signing
from tests.server.scripted import play_seat
from tests.server.test_cli_hostile import run
from tests.server.test_perudo_game import start_room
from tests.server.test_ratings_store import http_get


async def test_a_finished_game_is_signed_with_the_published_key(
    server: UmpireServer, connect: Any, db_path: str
) -> None:
    key_file = db_path + ".key"
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    room_id, clients = await start_room(connect, 2)
    welcome = next(f for f in clients[0].frames if f["type"] == "welcome")
    key = welcome["signing_key"]
    assert key["algorithm"] == "ed25519" and key["id"] == signing.load(key_file).key_id
    await clients[1].request("say", "chat", room=room_id, text="good luck")
    await asyncio.gather(*(play_seat(c, room_id, s) for s, c in enumerate(clients)))
    final = await clients[0].expect("room", state="finished")
    assert final["key_id"] == key["id"]
    assert signing.verify(key["public"], room_id, final["final_hash"], final["signature"])
    status, body = await asyncio.to_thread(http_get, server.port, "/api/signing-keys")
    assert status == 200 and body["type"] == "signing_keys"
    assert body["keys"] == [{**key, "current": True}]
    assert await verify_game(server.store, room_id) == []
    actions = await server.store.actions(room_id)
    assert {a.by for a in actions} == {"player"}

    await server.close()
    code, out, err = await asyncio.to_thread(run, ["verify", "--db", db_path])
    assert (code, err) == (0, "") and f"signed by key {key['id']}" in out
    with sqlite3.connect(db_path) as conn:  # the chat line edited
        conn.execute("UPDATE chat SET text = 'gg' WHERE game_id = ?", (room_id,))
    conn.close()
    code, out, _ = await asyncio.to_thread(run, ["verify", "--db", db_path])
    assert code == 1 and "chat line 1" in out and "does not match its link" in out


def test_verify_says_unchained_and_fails_unless_allowed(tmp_path: Any) -> None:
    """A game logged before the chain (as migration 8 marks it) is never passed silently:
    ``UNCHAINED`` and exit 1, or exit 0 with ``--allow-unchained`` (still listed); a
    chained game whose signature was removed is NOT verified."""
    db = str(tmp_path / "kb.db")
    argv = ["selfplay", "--game", "perudo", "--bots", "perudo-random", "--games", "2"]
    assert run([*argv, "--db", db, "--seed", "u"])[0] == 0
    with sqlite3.connect(db) as conn:
        old, unsigned = (r[0] for r in conn.execute("SELECT id FROM games ORDER BY id"))
        conn.execute(
            "UPDATE games SET chained = 0, final_hash = NULL, signature = NULL, key_id = NULL "
            "WHERE id = ?",
            (old,),
        )
        for table in ("actions", "events", "chat"):
            conn.execute(f"UPDATE {table} SET pos = NULL, hash = NULL WHERE game_id = ?", (old,))
        conn.execute("UPDATE actions SET decided_by = NULL WHERE game_id = ?", (old,))
    conn.close()
    code, out, err = run(["verify", "--db", db, old])
    assert code == 1 and f"{old}: UNCHAINED" in out and "1 games are unchained" in err
    code, out, err = run(["verify", "--db", db, old, "--allow-unchained"])
    assert code == 0 and f"{old}: UNCHAINED" in out and "--allow-unchained" in err
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET signature = NULL WHERE id = ?", (unsigned,))
    conn.close()
    code, out, _ = run(["verify", "--db", db, unsigned, "--allow-unchained"])
    assert code == 1 and "its final hash is not signed" in out

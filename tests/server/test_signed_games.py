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

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
    with sqlite3.connect(db_path) as conn:  # the chat line deleted: a hole in the chain
        conn.execute("DELETE FROM chat WHERE game_id = ?", (room_id,))
    conn.close()
    code, out, _ = await asyncio.to_thread(run, ["verify", "--db", db_path])
    assert code == 1 and f"{room_id}: NOT verified" in out and "rows are missing" in out


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


# -- an attacker who can write the database, not the key file (issue 32) -------------------


def _selfplay(tmp_path: Any, games: int = 3) -> tuple[str, list[str]]:
    db = str(tmp_path / "kb.db")
    argv = ["selfplay", "--game", "perudo", "--bots", "perudo-random", "--games", str(games)]
    assert run([*argv, "--db", db, "--seed", "t"])[0] == 0
    with sqlite3.connect(db) as conn:
        ids = [r[0] for r in conn.execute("SELECT id FROM games ORDER BY id")]
    conn.close()
    return db, ids


def _rechain(db: str, game_id: str, attacker: signing.Signer | None) -> None:
    """Recompute ``game_id``'s chain from its stored rows as they are now (the attacker's
    edits kept), its final hash too, and sign it with ``attacker``'s key if given."""
    from server.store import chain

    with sqlite3.connect(db) as conn:
        found = []
        for table, key in (("actions", "n"), ("events", "seq"), ("chat", "n")):
            sql = f"SELECT pos, {key} FROM {table} WHERE game_id = ?"
            found += [(pos, table, key, n) for pos, n in conn.execute(sql, (game_id,))]
    conn.close()

    async def stored() -> tuple[Any, Any, Any, Any]:
        from server.store.sqlite import SqliteStore

        store = SqliteStore(db)
        await store.open()
        try:
            got: list[Any] = [await store.game(game_id), await store.actions(game_id)]
            return (*got, await store.events(game_id), await store.chat(game_id))
        finally:
            await store.close()

    row, actions, events, chat = asyncio.run(stored())
    by_pos = {a.pos: partial_encoding(chain.encode_action, a) for a in actions}
    by_pos |= {e.pos: partial_encoding(chain.encode_event, e) for e in events}
    by_pos |= {c.pos: partial_encoding(chain.encode_chat, c) for c in chat}
    head = chain.start(game_id)
    with sqlite3.connect(db) as conn:
        for pos, table, key, n in sorted(found):
            head = head.then(by_pos[pos])
            conn.execute(
                f"UPDATE {table} SET pos = ?, hash = ? WHERE game_id = ? AND {key} = ?",
                (head.pos, head.hash, game_id, n),
            )
        head = head.then(lambda at: chain.encode_end(at, row))
        conn.execute("UPDATE games SET final_hash = ? WHERE id = ?", (head.hash, game_id))
        if attacker is not None:
            conn.execute(
                "UPDATE games SET signature = ?, key_id = ? WHERE id = ?",
                (attacker.sign(game_id, head.hash), attacker.key_id, game_id),
            )
    conn.close()


def partial_encoding(encode: Any, row: Any) -> Any:
    return lambda pos: encode(pos, row)


def test_a_key_the_attacker_adds_to_the_database_is_not_trusted(tmp_path: Any) -> None:
    """Whoever can write the database, not the key file, rewrites a move's ``by``,
    recomputes the chain and signs it with a key of their own, added to ``signing_keys``
    (or put under the server's key id): ``verify`` trusts only the key file beside the
    database and ``--trusted-key``, so both games are NOT verified; the untouched one is."""
    db, (added, replaced, untouched) = _selfplay(tmp_path)
    server_key = signing.load(db + ".key", create=False)
    attacker = signing.Signer.generate()
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE actions SET decided_by = 'standin' WHERE game_id IN (?, ?) AND n = 1",
            (added, replaced),
        )
        conn.execute(
            "INSERT INTO signing_keys (id, public, created) VALUES (?, ?, 1.0)",
            (attacker.key_id, attacker.public),
        )
    conn.close()
    _rechain(db, added, attacker)
    _rechain(db, replaced, attacker)
    with sqlite3.connect(db) as conn:  # the attacker's public key under the server's id
        conn.execute("UPDATE games SET key_id = ? WHERE id = ?", (server_key.key_id, replaced))
        conn.execute(
            "UPDATE signing_keys SET public = ? WHERE id = ?",
            (attacker.public, server_key.key_id),
        )
        conn.execute("DELETE FROM signing_keys WHERE id = ?", (attacker.key_id,))
        conn.execute(
            "INSERT INTO signing_keys (id, public, created) VALUES (?, ?, 1.0)",
            (attacker.key_id, attacker.public),
        )
    conn.close()
    code, out, err = run(["verify", "--db", db])
    assert code == 1, out
    assert f"{added}: NOT verified" in out and f"{replaced}: NOT verified" in out
    assert f"{untouched}: verified" in out
    assert f"key {attacker.key_id}, which is not a trusted key" in out
    # the public key alone (as welcome and GET /api/signing-keys give it), no key file
    os.rename(db + ".key", str(tmp_path / "elsewhere.key"))
    code, out, err = run(["verify", "--db", db, untouched])
    assert code == 1 and "not a trusted key" in out and "--trusted-key" in err
    code, out, err = run(["verify", "--db", db, untouched, "--trusted-key", server_key.public])
    assert (code, err) == (0, ""), out
    key_file = str(tmp_path / "elsewhere.key")
    code, out, _ = run(["verify", "--db", db, "--trusted-key", key_file])
    assert code == 1 and out.count("NOT verified") == 2
    # the database's own table, on request only, with what that means
    code, out, err = run(["verify", "--db", db, added, "--trust-stored-keys"])
    assert code == 0 and "whoever can write the database" in err
    code, _, err = run(["verify", "--db", db, "--trusted-key", "nonsense"])
    assert code == 2 and "nonsense" in err and "Traceback" not in err


def test_a_finished_game_hidden_as_in_progress_is_caught(tmp_path: Any) -> None:
    """A signed game whose status or revealed seed was turned back is NOT verified by
    ``verify --all`` (it has a final hash: only an ended game has one); a game really in
    progress is listed on stderr as not checked."""
    db, (playing, unrevealed, untouched) = _selfplay(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET status = 'playing' WHERE id = ?", (playing,))
        conn.execute("UPDATE games SET seed_revealed = 0 WHERE id = ?", (unrevealed,))
    conn.close()
    code, out, err = run(["verify", "--db", db])
    assert code == 1
    assert f"{playing}: NOT verified" in out and f"{unrevealed}: NOT verified" in out
    assert "its end is signed" in out and f"{untouched}: verified" in out
    with sqlite3.connect(db) as conn:  # its end removed too: it looks like a live game
        conn.execute(
            "UPDATE games SET final_hash = NULL, signature = NULL, key_id = NULL WHERE id = ?",
            (playing,),
        )
    conn.close()
    code, out, err = run(["verify", "--db", db])
    assert f"1 games in progress were not checked: {playing}" in err


def test_selfplay_and_tournament_sign_with_the_key_file_given(tmp_path: Any) -> None:
    """``selfplay --signing-key`` (and ``tournament --db --signing-key``) sign with that
    file (made there, mode 0600), not one beside the database; ``verify`` trusts it when
    told with ``--trusted-key``."""
    db, key_file = str(tmp_path / "kb.db"), str(tmp_path / "keys" / "cluster.key")
    os.mkdir(tmp_path / "keys")
    argv = ["--game", "perudo", "--bots", "perudo-random", "--games", "2", "--db", db]
    assert run(["selfplay", *argv, "--seed", "k", "--signing-key", key_file])[0] == 0
    assert run(["tournament", *argv, "--seed", "l", "--signing-key", key_file])[0] == 0
    assert not os.path.exists(db + ".key")
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    key = signing.load(key_file, create=False)
    with sqlite3.connect(db) as conn:
        assert {r[0] for r in conn.execute("SELECT key_id FROM games")} == {key.key_id}
    conn.close()
    code, out, _ = run(["verify", "--db", db, "--trusted-key", key_file])
    assert code == 0 and out.count("verified:") == 4
    assert run(["verify", "--db", db])[0] == 1  # (no key file beside it: nothing trusted)


def test_postgresql_without_a_key_file_is_refused_in_one_line() -> None:
    """On PostgreSQL there is no "beside the database": ``serve``, ``selfplay`` and
    ``tournament --db`` refuse to start without ``--signing-key`` (a key of the process
    would be lost with it, and no one could trust its games), before connecting."""
    dsn = "postgresql://nobody@127.0.0.1:1/none"
    bots = ["--game", "perudo", "--bots", "perudo-random", "--games", "1", "--db", dsn]
    for argv in (["serve", "--port", "0", "--db", dsn], ["selfplay", *bots], ["tournament", *bots]):
        code, _, err = run(argv)
        assert code == 1 and "Traceback" not in err, (argv, err)
        assert len(err.strip().splitlines()) == 1 and "--signing-key" in err, (argv, err)


def test_every_tamper_from_outside_is_caught_in_one_run(tmp_path: Any) -> None:
    """The tester's tampers, each on its own game of one self-played knowledge base,
    edited with sqlite3 as someone without the key file would: ``verify`` names every
    game, and passes the one left alone."""
    db, ids = _selfplay(tmp_path, games=12)
    untouched, *games = ids
    attacker = signing.Signer.generate()
    tampers: dict[str, list[str]] = {}

    def edit(name: str, *sql: str) -> str:
        game_id = games[len(tampers)]
        tampers[name] = [game_id]
        with sqlite3.connect(db) as conn:
            for statement in sql:
                conn.execute(statement.replace("GID", f"'{game_id}'"))
        conn.close()
        return game_id

    first = "(SELECT MIN({k}) FROM {t} WHERE game_id = GID)"
    last = "(SELECT MAX({k}) FROM {t} WHERE game_id = GID)"
    for which, sub in (("first", first), ("last", last)):
        for table, key in (("actions", "n"), ("events", "seq")):
            where = sub.format(k=key, t=table)
            edit(f"{table} {which}", f"DELETE FROM {table} WHERE game_id = GID AND {key} = {where}")
    edit("by", "UPDATE actions SET decided_by = 'house' WHERE game_id = GID AND n = 2")
    truncated = edit(
        "tail truncated, final hash recomputed",
        "DELETE FROM events WHERE game_id = GID AND seq = "
        "(SELECT MAX(seq) FROM events WHERE game_id = GID)",
    )
    _rechain(db, truncated, None)
    resigned = edit(
        "an action's time, rechained and re-signed",
        "UPDATE actions SET at = at + 1 WHERE game_id = GID AND n = 1",
        f"INSERT INTO signing_keys VALUES ('{attacker.key_id}', '{attacker.public}', 1.0)",
    )
    _rechain(db, resigned, attacker)
    one = edit("two whole chains swapped (1)")
    two = games[len(tampers)]
    tampers["two whole chains swapped (1)"].append(two)
    with sqlite3.connect(db) as conn:
        for table in ("actions", "events", "chat"):
            conn.execute(f"UPDATE {table} SET game_id = 'x' WHERE game_id = ?", (one,))
            conn.execute(f"UPDATE {table} SET game_id = ? WHERE game_id = ?", (one, two))
            conn.execute(f"UPDATE {table} SET game_id = ? WHERE game_id = 'x'", (two,))
        cols = ["seed", "seed_sha256", "result", "reason", "final_hash", "signature", "key_id"]
        select = f"SELECT {', '.join(cols)} FROM games WHERE id = ?"
        rows = [conn.execute(select, (g,)).fetchone() for g in (one, two)]
        update = f"UPDATE games SET {', '.join(c + ' = ?' for c in cols)} WHERE id = ?"
        conn.execute(update, (*rows[1], one))
        conn.execute(update, (*rows[0], two))
    conn.close()
    code, out, _ = run(["verify", "--db", db])
    assert code == 1
    assert f"{untouched}: verified" in out
    for name, game_ids in tampers.items():
        for game_id in game_ids:
            assert f"{game_id}: NOT verified" in out, name


def test_a_key_file_made_anew_for_a_signed_knowledge_base_is_a_warning(
    tmp_path: Any, caplog: Any
) -> None:
    """The key file gone (lost, or removed by whoever can write its folder): the next run
    makes a new one, as for a rotation, but says so with a WARNING naming the file and the
    keys the knowledge base was signed with, instead of one INFO line."""
    db, _ = _selfplay(tmp_path, games=1)
    old = signing.load(db + ".key", create=False)
    os.remove(db + ".key")
    caplog.set_level("INFO", logger="server.store.signing")
    _selfplay(tmp_path, games=1)
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warned) == 1 and db + ".key" in warned[0] and old.key_id in warned[0], warned

"""A full disk mid-game, over real sockets (issue 34, item 1).

Two ways to fill it:

- injected: the store's fault-injection hook (``before_commit``) raises SQLite's own
  "database or disk is full" (``SQLITE_FULL``) inside every write transaction, so the
  failure is deterministic and happens exactly where a real one does (the COMMIT);
- real: ``umpire serve`` on a small file system made by the test, filled with ``dd``
  and freed again. As root the file system is a tmpfs the test mounts; without root (no
  mount) the server runs under a file-size limit (``RLIMIT_FSIZE``: a write past it fails
  with ``EFBIG``, as a full disk fails with ``ENOSPC``), lowered to "full" and raised again
  with ``prlimit`` from outside.

Checked: every attached player and spectator is told (``paused``), an ``act`` during the
pause is answered ``paused`` (never ``aborted``), a new ``hello`` is answered
``unavailable`` (never a 1011 close), nothing not stored is acknowledged or shown,
``/healthz`` is 503 with its metrics, play goes on by itself once writes succeed, and a
shutdown while paused stores and announces no abort: the next server resumes the stored
game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.net.app import UmpireServer
from tests.eventually import eventually
from tests.server.serve import ROOT
from tests.server.wsclient import WsClient

#: set to use the file-size limit even where a tmpfs could be mounted (to test that way)
NO_MOUNT = "UMPIRE_TEST_NO_MOUNT"
KRIEGSPIEL = {"game": "kriegspiel", "options": {"rules": "wild16"}, "clock": {"base": 600}}


def http_get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def sample(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no sample {name}")


class DiskFull:
    """``store.before_commit``: raises SQLite's disk-full error while ``full``."""

    def __init__(self) -> None:
        self.full = False

    async def __call__(self) -> None:
        if self.full:
            error = sqlite3.OperationalError("database or disk is full")
            error.sqlite_errorcode = sqlite3.SQLITE_FULL
            raise error


async def players(port: int, **create: Any) -> tuple[str, WsClient, WsClient, WsClient]:
    """A started room of two players and a spectator; return it and its clients."""
    ana, bob, wes = [await WsClient.open(port) for _ in range(3)]
    for client, name in ((ana, "ana"), (bob, "bob"), (wes, "wes")):
        await client.hello(name)
    room = (await ana.request("create_room", "created", **create))["room"]
    await ana.request("join", "joined", room=room)
    await bob.request("join", "joined", room=room)
    await wes.request("watch", "watching", room=room)
    return room, ana, bob, wes


async def turn_of(room: str, *clients: WsClient) -> tuple[WsClient, dict[str, Any]]:
    """The client to move and its current ``turn`` frame: the one whose newest turn frame
    is numbered as the newest event it has seen (a player who moved since its last turn
    has seen its own move's events since). Frames read meanwhile stay queued."""
    for _ in range(2000):
        for client in clients:
            turns = [f for f in client.frames if f.get("type") == "turn" and f.get("room") == room]
            stream = client.core.streams.get(room)
            if turns and stream is not None and turns[-1]["seq"] == stream.seq:
                return client, turns[-1]
        for client in clients:
            with contextlib.suppress(TimeoutError):
                frame = await client._pull(0.01)
                client._pending.remove(frame)  # (kept in client.frames)
    raise AssertionError("nobody's turn")


async def acked(client: WsClient, room: str, ref: int, timeout: float = 5.0) -> dict[str, Any]:
    """Wait for the ``ack`` of ``ref`` and for the events it numbers."""
    ack = await client.expect("ack", room=room, ref=ref, timeout=timeout)
    while client.core.streams[room].seq < ack["seq"]:
        frame = await client._pull(timeout)
        client._pending.remove(frame)
    return ack


async def ack_or_pause(client: WsClient, room: str, ref: int) -> dict[str, Any]:
    """The ``ack`` of ``ref`` or a ``paused`` notice, whichever comes first (left queued)."""
    while True:
        for frame in client._pending:
            if frame.get("room") != room:
                continue
            if frame.get("type") == "paused" or (
                frame.get("type") == "ack" and frame.get("ref") == ref
            ):
                return frame
        await client._pull(5.0)


def shown(client: WsClient, room: str) -> list[str]:
    """Every state and event kind ``client`` was shown for ``room`` (to find an abort)."""
    out = []
    for frame in client.frames:
        if frame.get("room") != room:
            continue
        if frame.get("type") == "room":
            out.append(str(frame.get("state")))
        if frame.get("type") == "event":
            out.append(str(frame["event"].get("type")))
    return out


async def test_injected_disk_full_pauses_and_resumes(make_server: Any, db_path: str) -> None:
    full = DiskFull()
    server: UmpireServer = await make_server()
    server.store.before_commit = full
    room, ana, bob, wes = await players(server.port, **KRIEGSPIEL)
    mover, turn = await turn_of(room, ana, bob)
    other = bob if mover is ana else ana
    events = {c: len(c.events(room)) for c in (ana, bob, wes)}

    full.full = True
    await mover.send(type="act", room=room, action=turn["legal"][0], ref=1)
    for client in (ana, bob, wes):
        notice = await client.expect("paused", room=room)
        assert notice["paused"] is True and "cannot save" in notice["message"]
    status, body = await asyncio.to_thread(http_get, server.port, "/healthz")
    assert status == 503 and json.loads(body)["status"] == "cannot_save"
    _, metrics = await asyncio.to_thread(http_get, server.port, "/metrics")
    assert sample(metrics, "umpire_store_write_failures_total") >= 1
    assert sample(metrics, "umpire_rooms_paused") == 1
    listed = (await other.request("list_rooms", "rooms"))["rooms"]
    assert [r["paused"] for r in listed if r["room"] == room] == [True]
    # an act during the pause: a clear answer; a chat line too
    await other.send(type="act", room=room, action="e7e5", ref=2)
    refused = await other.error("paused")
    assert refused["ref"] == 2 and refused["room"] == room
    await wes.send(type="say", room=room, text="anyone?")
    await wes.error("paused")
    # a newcomer's hello needs a write: told to come back, not closed with 1011
    newcomer = await WsClient.open(server.port)
    newcomer.core.name = "zoe"
    await newcomer.send(**newcomer.core.hello_message())
    await newcomer.error("unavailable")
    await newcomer.close()
    # nothing not stored was acknowledged or shown
    for client in (ana, bob, wes):
        drained = await client.drain(0.2)
        assert not [f for f in drained if f.get("type") in ("ack", "event", "room")], drained
        assert len(client.events(room)) == events[client]

    # a player coming back during the pause: welcomed (no write needed), and its resume
    # waits for the end of the pause, told why at once
    back = await WsClient.open(server.port)
    await back.hello("wes", token=wes.token)
    await back.send(type="resume", room=room, since=0, ref=5)
    await back.expect("paused", room=room, paused=True)

    full.full = False  # space is freed: the room goes on by itself
    await back.expect("resumed", room=room, ref=5)
    await back.close()
    ack = await acked(mover, room, 1)
    for client in (ana, bob, wes):
        await client.expect("paused", room=room, paused=False)
    status, _ = await asyncio.to_thread(http_get, server.port, "/healthz")
    assert status == 200
    assert len(mover.events(room)) == events[mover] + (ack["seq"] - ack["first"] + 1)
    nxt, turn = await turn_of(room, ana, bob)
    await nxt.send(type="act", room=room, action=turn["legal"][0], ref=3)
    await acked(nxt, room, 3)

    # full again, and the server is stopped (SIGTERM) while paused: no abort anywhere
    mover, turn = await turn_of(room, ana, bob)
    stored = server.lobby.rooms[room].core.streams.seq(None)
    full.full = True
    await mover.send(type="act", room=room, action=turn["legal"][0], ref=4)
    await mover.expect("paused", room=room, paused=True)
    seen = {c: c.core.streams[room].seq for c in (ana, bob)}
    await server.close()
    for client in (ana, bob, wes):
        await client.closed()
        assert "aborted" not in shown(client, room), shown(client, room)
    row = await reopened_row(db_path, room)
    assert row == "playing"
    again: UmpireServer = await make_server()
    restored = server_room(again, room)
    assert restored.state == "playing" and restored.core.streams.seq(None) == stored
    ana2 = await WsClient.open(again.port)
    await ana2.hello("ana", token=ana.token)
    resumed = await ana2.request("resume", "resumed", room=room, since=seen[ana])
    assert resumed["seq"] >= seen[ana]
    await ana2.close()
    for client in (ana, bob, wes):
        await client.close()


def server_room(server: UmpireServer, room: str) -> Any:
    found = server.lobby.rooms.get(room)
    assert found is not None, f"room {room} was not restored"
    return found


async def reopened_row(db: str, room: str) -> str:
    with contextlib.closing(sqlite3.connect(db)) as con:
        (status,) = con.execute("SELECT status FROM games WHERE id = ?", (room,)).fetchone()
    return str(status)


# -- a real full disk -------------------------------------------------------------------


class SmallDisk:
    """A small file system for one ``umpire serve``, filled and freed on demand."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.mounted = False
        self.proc: asyncio.subprocess.Process | None = None
        self.port = 0

    @property
    def how(self) -> str:
        return "tmpfs" if self.mounted else "RLIMIT_FSIZE"

    async def start(self) -> None:
        self.folder.mkdir()
        if os.geteuid() == 0 and shutil.which("mount") and not os.environ.get(NO_MOUNT):
            done = subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(self.folder)],
                capture_output=True,
            )
            self.mounted = done.returncode == 0
        await self.launch()

    async def launch(self) -> None:
        """Start ``umpire serve`` on the small file system's database."""
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "server.cli",
            "serve",
            "--port",
            "0",
            "--db",
            str(self.folder / "umpire.db"),
            "--log-level",
            "WARNING",
            "--rate",
            "1000",
            "--burst",
            "1000",
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
        assert b"listening on" in line, line
        self.port = int(line.decode().rsplit(":", 1)[1])

    def fill(self) -> None:
        """No byte left (tmpfs: a file fills it; otherwise the server's file-size
        limit drops to one byte)."""
        if self.mounted:
            subprocess.run(
                ["dd", "if=/dev/zero", f"of={self.folder / 'filler'}", "bs=64k"],
                capture_output=True,
            )
            return
        assert self.proc is not None
        # (one byte: no write past a file's first byte succeeds. A limit at the files'
        # size let the database file grow into the WAL's size once a checkpoint had
        # emptied the WAL, so the "full" disk freed itself within a second)
        resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE, (1, resource.RLIM_INFINITY))

    def free(self) -> None:
        if self.mounted:
            (self.folder / "filler").unlink()
            return
        assert self.proc is not None
        if self.proc.returncode is not None:
            return  # (the limit died with the process: the next one starts without it)
        limit = (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
        resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE, limit)

    async def stop_server(self) -> tuple[int | None, str]:
        """SIGTERM the server (the file system stays); its exit status and stderr."""
        err = ""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            _, raw = await asyncio.wait_for(self.proc.communicate(), 60)
            err = raw.decode()
        return (self.proc.returncode if self.proc else None), err

    async def stop(self) -> tuple[int | None, str]:
        err = ""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            _, raw = await asyncio.wait_for(self.proc.communicate(), 60)
            err = raw.decode()
        if self.mounted:
            subprocess.run(["umount", str(self.folder)], check=True)
        return (self.proc.returncode if self.proc else None), err


@pytest.fixture
async def small_disk(tmp_path: Path) -> AsyncIterator[SmallDisk]:
    disk = SmallDisk(tmp_path / "small")
    await disk.start()
    try:
        yield disk
    finally:
        if disk.proc is not None and disk.proc.returncode is None:
            disk.proc.kill()
            await disk.proc.wait()
        if disk.mounted:
            subprocess.run(["umount", "-l", str(disk.folder)], check=False)


async def test_a_write_reported_failed_but_stored_is_not_written_twice(
    make_server: Any,
) -> None:
    """An I/O error after the commit reached the disk: the write reports a failure but is
    stored. The room pauses, its retry finds the rows there (writing them again would fail
    for ever on their keys) and the game goes on, the move acknowledged once."""
    from server.errors import StoreError

    server: UmpireServer = await make_server()
    room, ana, bob, wes = await players(server.port, **KRIEGSPIEL)
    mover, turn = await turn_of(room, ana, bob)
    real = server.store.append
    lies = [True]

    async def append(*args: Any, **kwargs: Any) -> None:
        await real(*args, **kwargs)
        if lies and lies.pop():
            raise StoreError("write failed: disk I/O error (after the commit)")

    server.store.append = append  # type: ignore[method-assign]
    await mover.send(type="act", room=room, action=turn["legal"][0], ref=1)
    await mover.expect("paused", room=room, paused=True)
    await mover.expect("paused", room=room, paused=False)
    await acked(mover, room, 1)
    assert len([f for f in mover.frames if f.get("type") == "ack"]) == 1
    nxt, turn = await turn_of(room, ana, bob)
    await nxt.send(type="act", room=room, action=turn["legal"][0], ref=2)
    await acked(nxt, room, 2)
    for client in (ana, bob, wes):
        await client.close()


def a_move(turn: dict[str, Any]) -> str:
    """The first legal move of a Kriegspiel ``turn`` (never a resignation or a draw)."""
    move: str = next(a for a in turn["legal"] if a not in ("any", "resign", "offer_draw"))
    return move


async def play_until_paused(
    room: str, ana: WsClient, bob: WsClient, ref: int
) -> tuple[WsClient, int]:
    """Move in ``room`` until a move's write fails: return who made it and its ref."""
    for n in range(ref, ref + 400):
        mover, turn = await turn_of(room, ana, bob)
        await mover.send(type="act", room=room, action=a_move(turn), ref=n)
        if (await ack_or_pause(mover, room, n))["type"] == "paused":
            return mover, n
        await acked(mover, room, n)
    raise AssertionError("the disk never filled up")


async def test_a_full_disk_then_kill_9_while_paused_every_game_goes_on_and_verifies(
    small_disk: SmallDisk, tmp_path: Path
) -> None:
    """A real full disk twice: the first pause ends when space is freed (the retried
    write keeps the hash chain whole), the second ends with ``kill -9``; the restarted
    server goes on with both games, which finish and pass ``umpire verify``, hash chain
    and signature included. During the pause the lobby, the web page and ``list_rooms``
    still answer (they only read), a new ``hello`` is told ``unavailable`` (or is
    stored for real: see below)."""
    port = small_disk.port
    one, ana, bob, wes = await players(port, **KRIEGSPIEL)
    two, cid, dan, _ = await players(port, **KRIEGSPIEL)
    for n in range(2):
        for room, x, y in ((one, ana, bob), (two, cid, dan)):
            mover, turn = await turn_of(room, x, y)
            await mover.send(type="act", room=room, action=a_move(turn), ref=n)
            await acked(mover, room, n)
    small_disk.fill()
    mover, pending = await play_until_paused(one, ana, bob, 10)
    other = bob if mover is ana else ana
    await other.expect("paused", room=one, paused=True)
    await wes.expect("paused", room=one, paused=True)
    assert (await asyncio.to_thread(http_get, port, "/healthz"))[0] == 503
    await other.send(type="act", room=one, action="e2e4", ref=999)
    await other.error("paused")
    before = {c: len(c.events(one)) for c in (ana, bob, wes)}
    drained = await mover.drain(0.2)  # (nothing not stored is acknowledged or shown)
    assert not [f for f in drained if f.get("type") in ("ack", "event", "room")], drained
    assert {c: len(c.events(one)) for c in (ana, bob, wes)} == before
    small_disk.free()
    for client in (ana, bob, wes):
        await client.expect("paused", room=one, paused=False, timeout=30)
    await acked(mover, one, pending)  # the move made before the pause, stored at last
    await eventually(lambda: http_get(port, "/healthz")[0], equals=200, what="healthy again")
    for n in range(500, 503):
        mover, turn = await turn_of(one, ana, bob)
        await mover.send(type="act", room=one, action=a_move(turn), ref=n)
        await acked(mover, one, n)
    # full again: the second room pauses; a chat line in the first is refused too
    small_disk.fill()
    await play_until_paused(two, cid, dan, 600)
    assert (await asyncio.to_thread(http_get, port, "/healthz"))[0] == 503
    status, page = await asyncio.to_thread(http_get, port, "/")
    assert status == 200 and "<html" in page.lower()
    listed = (await wes.request("list_rooms", "rooms"))["rooms"]
    assert {r["room"]: r["paused"] for r in listed if r["room"] in (one, two)}[two] is True
    newcomer = await WsClient.open(port)
    newcomer.core.name = "zoe"
    await newcomer.send(**newcomer.core.hello_message())
    answer = await newcomer.next()
    # Told "unavailable", or welcomed: once a checkpoint has copied the whole log back,
    # SQLite writes its log again from the start, in space the file already holds, so a
    # full disk still takes a few small writes (seen once in some twenty runs under
    # load). A welcome must then be true: the token works after the kill -9 (below).
    if answer["type"] == "welcome":
        stored = newcomer.token
    else:
        assert answer["type"] == "error" and answer["code"] == "unavailable", answer
        stored = None
    await newcomer.close()
    assert small_disk.proc is not None
    small_disk.proc.kill()  # kill -9 while paused
    await small_disk.proc.wait()
    for client in (ana, bob, wes, cid, dan):
        await client.closed()
        for room in (one, two):
            assert "aborted" not in shown(client, room), shown(client, room)
    small_disk.free()
    await small_disk.launch()
    port = small_disk.port
    if stored is not None:  # the welcome's write survived the kill
        zoe = await WsClient.open(port)
        assert (await zoe.hello("zoe", token=stored))["player"]["name"] == "zoe"
        await zoe.close()
    for room, x, y in ((one, ana, bob), (two, cid, dan)):
        back = []
        for old in (x, y):
            client = await WsClient.open(port)
            await client.hello(str(old.player["name"]), token=old.token)
            await client.request("resume", "resumed", room=room, since=0)
            back.append(client)
        for n in range(700, 702):
            mover, turn = await turn_of(room, *back)
            await mover.send(type="act", room=room, action=a_move(turn), ref=n)
            await acked(mover, room, n)
        mover, _turn = await turn_of(room, *back)
        await mover.send(type="act", room=room, action="resign", ref=800)
        await acked(mover, room, 800)
        for client in back:
            await client.expect("room", room=room, state="finished")
            await client.close()
    for client in (ana, bob, wes, cid, dan):
        await client.close()
    code, err = await small_disk.stop_server()
    assert code == 0 and "Traceback" not in err, err
    verify = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        "verify",
        "--db",
        str(small_disk.folder / "umpire.db"),
        "--all",
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err_bytes = await asyncio.wait_for(verify.communicate(), 60)
    text = out.decode()
    assert verify.returncode == 0, (text, err_bytes.decode())
    for room in (one, two):
        assert f"{room}: verified" in text and "chains to the final hash" in text, text

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
            error.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
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
        limit drops to the size its files have now)."""
        if self.mounted:
            subprocess.run(
                ["dd", "if=/dev/zero", f"of={self.folder / 'filler'}", "bs=64k"],
                capture_output=True,
            )
            return
        assert self.proc is not None
        size = max(p.stat().st_size for p in self.folder.iterdir())
        resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE, (size, resource.RLIM_INFINITY))

    def free(self) -> None:
        if self.mounted:
            (self.folder / "filler").unlink()
            return
        assert self.proc is not None
        limit = (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
        resource.prlimit(self.proc.pid, resource.RLIMIT_FSIZE, limit)

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


async def test_a_real_full_disk_pauses_the_game_until_space_is_freed(
    small_disk: SmallDisk,
) -> None:
    port = small_disk.port
    room, ana, bob, wes = await players(port, **KRIEGSPIEL)
    # a few moves, then the disk fills up
    for n in range(4):
        mover, turn = await turn_of(room, ana, bob)
        await mover.send(type="act", room=room, action=turn["legal"][0], ref=n)
        await acked(mover, room, n)
    small_disk.fill()
    # moves until a write fails (the WAL may have room left in the space it holds)
    pending = None
    for n in range(10, 400):
        mover, turn = await turn_of(room, ana, bob)
        await mover.send(type="act", room=room, action=turn["legal"][0], ref=n)
        frame = await ack_or_pause(mover, room, n)
        if frame["type"] == "paused":
            pending = n
            break
        await acked(mover, room, n)
    assert pending is not None, f"the disk never filled up ({small_disk.how})"
    other = bob if mover is ana else ana
    await other.expect("paused", room=room, paused=True)
    await wes.expect("paused", room=room, paused=True)
    status, _ = await asyncio.to_thread(http_get, port, "/healthz")
    assert status == 503
    await other.send(type="act", room=room, action="e2e4", ref=999)
    await other.error("paused")
    before = {c: len(c.events(room)) for c in (ana, bob)}
    drained = await mover.drain(0.2)
    assert not [f for f in drained if f.get("type") in ("ack", "event")], drained

    small_disk.free()
    for client in (ana, bob, wes):
        await client.expect("paused", room=room, paused=False, timeout=30)
    await acked(mover, room, pending)  # the move made during the pause, stored at last
    await eventually(
        lambda: http_get(port, "/healthz")[0], equals=200, what="a healthy server again"
    )
    # the game goes on to more moves, all acknowledged
    for n in range(100, 104):
        mover, turn = await turn_of(room, ana, bob)
        await mover.send(type="act", room=room, action=turn["legal"][0], ref=n)
        await acked(mover, room, n)
    assert all(len(c.events(room)) > before[c] for c in (ana, bob))
    for client in (ana, bob, wes):
        assert "aborted" not in shown(client, room)
        await client.close()
    code, err = await small_disk.stop()
    assert code == 0, err
    assert "Traceback" not in err, err


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

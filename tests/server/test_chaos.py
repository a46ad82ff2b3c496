"""Chaos: 20 live games, a real ``umpire serve`` SIGKILLed three times and restarted.

Issue 14, point 11. Ten Perudo and ten Kriegspiel (wild16) games, public and private,
with scripted human clients and house bots, run against a server process on a fixed port
and a temporary database. At three random moments (seeded: ``CHAOS_SEED``) the server is
killed with SIGKILL and started again on the same database. The humans reconnect, say
hello with their token and resume by sequence number (from 0, or from a few frames before
their last), so that frames they already hold are sent again and compared byte for byte.

Checked at the end: every game finished, none with ``abandoned`` or ``timeout`` (nobody was
away but the server), no forfeit logged, and no seat ever played by the server's stand-in
(a house bot that does not come back after a restart would be); every acknowledged action is in the
``actions`` table exactly once, in order; every human seat's stream has no gap, ends at the
final ``room`` frame's ``seq``, and every frame re-sent after a kill is byte-identical to
the one received before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import random
import signal
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.ports import free_port
from tests.server.serve import spawn_serve
from tests.server.wsclient import WsClient

SEED = int(os.environ.get("CHAOS_SEED", "14"))
KILLS = 3
GAMES = 20
#: seconds after which the games still unfinished are given up (and reported as such; the
#: test asserts no time: a slow machine only takes longer, within pytest's timeout)
DEADLINE = 150.0
#: seconds a seat may stay away: longer than a restart, far shorter than the test, so a
#: house bot that does not come back is noticed (Kriegspiel: abandoned; Perudo: a stand-in
#: plays its seat, and the logged actions of a human seat stop matching its own)
GRACE = 10
#: seconds without any frame to any human after which the unfinished games are given up
STALL = 3 * GRACE
KRIEGSPIEL_FENS = (
    "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
    "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1",
)
COMMANDS = {"resign", "offer_draw", "accept_draw", "decline_draw"}


async def start_server(db: Path, port: int) -> asyncio.subprocess.Process:
    """``umpire serve`` on ``port`` with the database ``db``."""
    proc, _ = await spawn_serve(db, port=port, grace=GRACE, extra=("--synchronous", "NORMAL"))
    return proc


@dataclass
class Sent:
    """One act frame a human sent, and whether it was acknowledged."""

    action: str
    acked: bool = False


@dataclass
class Human:
    """A scripted human seat: plays on ``turn`` frames, survives any number of restarts."""

    name: str
    game: str
    room: str
    seat: int
    token: str
    rng: random.Random
    frames: dict[int, str] = field(default_factory=dict)  #: seq -> the raw event frame
    heard_at: float = field(default_factory=time.monotonic)  #: when a frame last came
    last_seq: int = 0
    final: dict[str, Any] | None = None
    sent: list[Sent] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    connections: int = 0
    compared: int = 0  #: frames received again after a reconnect and compared
    #: seats a room frame showed played by the server (absent past the grace period)
    stood_in: set[int] = field(default_factory=set)
    finished_at: float | None = None  #: when this seat saw the end (monotonic)

    @property
    def done(self) -> bool:
        return self.final is not None and self.last_seq >= int(self.final["seq"])

    async def run(self, port: int) -> None:
        """Connect, resume, play; reconnect whenever the server goes away."""
        while not self.done:
            try:
                async with connect(
                    f"ws://127.0.0.1:{port}", compression=None, max_size=None, open_timeout=5
                ) as ws:
                    self.connections += 1
                    await self._session(ws)
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
                await asyncio.sleep(0.1 + 0.2 * self.rng.random())

    async def _session(self, ws: Any) -> None:
        await ws.send(json.dumps({"type": "hello", "v": 1, "name": self.name, "token": self.token}))
        welcome = json.loads(await ws.recv())
        if welcome.get("type") != "welcome":
            self.problems.append(f"{self.name}: hello refused: {welcome}")
            raise ConnectionClosed(None, None)
        # Even seats ask for their whole stream again, odd ones for the last few frames and
        # on: either way every frame held before is sent again and compared.
        since = 0 if self.seat % 2 == 0 else max(0, self.last_seq - 3)
        await ws.send(json.dumps({"type": "resume", "room": self.room, "since": since}))
        pending: Sent | None = None
        async for text in ws:
            self.heard_at = time.monotonic()
            frame = json.loads(text)
            kind = frame.get("type")
            if frame.get("room") not in (None, self.room):
                continue
            if kind == "event":
                self._event(frame["seq"], text)
            elif kind == "room":
                self.stood_in |= {s["seat"] for s in frame["seats"] if s.get("autopilot")}
                if frame.get("state") in ("finished", "aborted"):
                    self.final = frame
            elif kind == "ack" and pending is not None:
                pending.acked, pending = True, None
            elif kind == "error":
                # it acts only on an up-to-date turn of its own seat: no refusal is expected
                self.problems.append(f"{self.name}: error {frame}")
                pending = None
            elif kind == "turn" and frame["seat"] == self.seat and frame["seq"] == self.last_seq:
                if pending is not None:
                    continue
                action = self._choose(frame["legal"])
                await asyncio.sleep(self._pause())
                pending = Sent(action)
                self.sent.append(pending)
                await ws.send(json.dumps({"type": "act", "room": self.room, "action": action}))
            if self.done:
                self.finished_at = time.monotonic()
                return

    def _event(self, seq: int, text: str) -> None:
        if seq <= self.last_seq:
            self.compared += 1
            if self.frames.get(seq) != text:
                self.problems.append(
                    f"{self.name}: seq {seq} re-sent differently:\n"
                    f"  before: {self.frames.get(seq)}\n  after:  {text}"
                )
            return
        if seq != self.last_seq + 1:
            self.problems.append(f"{self.name}: gap: seq {seq} after {self.last_seq}")
        self.frames[seq] = text
        self.last_seq = seq

    def _choose(self, legal: list[str]) -> str:
        rng = self.rng
        if self.game == "perudo":
            bids = [a for a in legal if "x" in a]
            if "dudo" in legal and (not bids or rng.random() < 0.3):
                return "dudo"
            low = min(int(b.split("x")[0]) for b in bids)
            return rng.choice([b for b in bids if int(b.split("x")[0]) == low])
        attempts = [a for a in legal if a not in COMMANDS]
        return rng.choice(attempts or legal)

    def _pause(self) -> float:
        if self.game == "perudo":
            return self.rng.uniform(0.15, 0.5)
        return self.rng.uniform(0.05, 0.15)


@dataclass
class Table:
    """One game of the test: its room and its human seats."""

    index: int
    game: str
    public: bool
    room: str = ""
    humans: list[Human] = field(default_factory=list)
    bots: dict[int, str] = field(default_factory=dict)


def layout(index: int) -> tuple[str, bool, int, dict[int, str], dict[str, Any]]:
    """Game ``index``: (game, public, host's seat, house bots by seat, options)."""
    public = index % 4 < 2
    k = index // 2
    if index % 2 == 0:
        kinds = ("perudo-random", "perudo-simple")
        bots = {3: kinds[k % 2]} if k % 2 == 0 else {2: kinds[0], 3: kinds[1]}
        return "perudo", public, 0, bots, {"seats": 4, "dice_per_player": 5}
    options = {"rules": "wild16", "fen": KRIEGSPIEL_FENS[k % 3]}
    if k % 3 == 0:
        return "kriegspiel", public, 0, {}, options
    if k % 3 == 1:
        return "kriegspiel", public, 0, {1: "kriegspiel-random"}, options
    return "kriegspiel", public, 1, {0: "kriegspiel-random"}, options


async def set_up(port: int, rng: random.Random) -> list[Table]:
    """Create the 20 rooms; seat humans (they leave at once: their runs resume) and bots."""
    tables = []
    for index in range(GAMES):
        game, public, host_seat, bots, options = layout(index)
        table = Table(index, game, public, bots=bots)
        host = await WsClient.open(port)
        await host.hello(f"h{index}s{host_seat}")
        created = await host.request(
            "create_room", "created", game=game, options=options, public=public, sit=False
        )
        table.room = created["room"]
        await host.request("join", "joined", room=table.room, seat=host_seat)
        seats = 4 if game == "perudo" else 2
        clients = {host_seat: host}
        for seat in range(seats):
            if seat == host_seat or seat in bots:
                continue
            client = await WsClient.open(port)
            await client.hello(f"h{index}s{seat}")
            where = {"room": table.room} if public else {"invite": created["invite"]}
            await client.request("join", "joined", seat=seat, **where)
            clients[seat] = client
        for seat, name in bots.items():
            await host.request("add_bot", "bot_added", room=table.room, bot=name, seat=seat)
        for seat, client in sorted(clients.items()):
            assert client.token is not None
            table.humans.append(
                Human(
                    client.player["name"],
                    game,
                    table.room,
                    seat,
                    client.token,
                    random.Random(rng.random()),
                )
            )
            await client.close()
        tables.append(table)
    return tables


def match(db: list[str], sent: list[Sent]) -> bool:
    """Whether the seat's logged actions are its acknowledged actions, each exactly once and
    in order, plus possibly some sent ones whose ack a kill swallowed."""

    @functools.cache
    def ok(i: int, j: int) -> bool:
        if j == len(sent):
            return i == len(db)
        if not sent[j].acked and ok(i, j + 1):  # lost with the server
            return True
        return i < len(db) and db[i] == sent[j].action and ok(i + 1, j + 1)

    return ok(0, 0)


@pytest.mark.timeout(240)
async def test_twenty_games_survive_three_sigkills(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    db = tmp_path / "chaos.db"
    port = free_port()
    started = time.monotonic()
    proc = await start_server(db, port)
    runs: list[asyncio.Task[None]] = []
    kills: list[float] = []
    live: list[int] = []  #: games not over (for their humans) at each kill
    try:
        tables = await set_up(port, rng)
        humans = [h for t in tables for h in t.humans]
        runs = [asyncio.create_task(h.run(port)) for h in humans]
        for _ in range(KILLS):
            await asyncio.sleep(rng.uniform(1.5, 4.0))  # a random moment of live play
            live.append(sum(1 for t in tables if not all(h.done for h in t.humans)))
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
            kills.append(time.monotonic() - started)
            proc = await start_server(db, port)
        while not all(task.done() for task in runs):
            now = time.monotonic()
            if now - started > DEADLINE or now - max(h.heard_at for h in humans) > STALL:
                break  # out of time, or every unfinished game has stopped moving
            await asyncio.wait(runs, timeout=1.0)
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 20)
    finally:
        for task in runs:
            task.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        if proc.returncode is None:
            proc.kill()
            await proc.wait()

    problems: list[str] = []
    with contextlib.closing(sqlite3.connect(db)) as conn:
        for table in tables:
            where = f"game {table.index} ({table.game}, {'public' if table.public else 'private'}"
            where += f", bots {table.bots or 'none'}, room {table.room})"
            status, reason = conn.execute(
                "SELECT status, reason FROM games WHERE id = ?", (table.room,)
            ).fetchone()
            if status != "finished":
                problems.append(f"{where}: status {status}, not finished")
            if reason in ("abandoned", "timeout"):
                problems.append(f"{where}: ended {reason!r}")
            actions = conn.execute(
                "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY n", (table.room,)
            ).fetchall()
            forfeits = [a for a in actions if a[1].startswith("forfeit")]
            if forfeits:
                problems.append(f"{where}: forfeits logged: {forfeits}")
            stood_in = sorted({seat for human in table.humans for seat in human.stood_in})
            if stood_in:
                problems.append(f"{where}: the server played seats {stood_in} (away too long)")
            for human in table.humans:
                problems += [f"{where}: {p}" for p in human.problems]
                logged = [a for s, a in actions if s == human.seat]
                if not match(logged, human.sent):
                    acked = [s.action for s in human.sent if s.acked]
                    problems.append(
                        f"{where}: seat {human.seat}: {len(acked)} acknowledged actions do not "
                        f"match the {len(logged)} logged ones exactly once"
                    )
                if human.final is None:
                    problems.append(f"{where}: seat {human.seat} never saw the end")
                elif human.last_seq != int(human.final["seq"]):
                    problems.append(
                        f"{where}: seat {human.seat} saw {human.last_seq} of "
                        f"{human.final['seq']} events"
                    )
    elapsed = time.monotonic() - started
    ends = [h.finished_at - started for t in tables for h in t.humans if h.finished_at]
    compared = sum(h.compared for t in tables for h in t.humans)
    summary = (
        f"kills at {[round(k, 1) for k in kills]} s with {live} games live, "
        f"{compared} frames re-sent and compared, last game seen over at "
        f"{max(ends, default=0):.0f} s, {elapsed:.0f} s in all"
    )
    assert not problems, f"{len(problems)} problems ({summary}):\n" + "\n".join(problems)
    assert live[0] >= GAMES // 2 and live[-1] >= 1, f"the kills came too late: {summary}"
    assert compared > 0, summary
    print(summary)

"""House bots (real bot clients started by the server) and the websocket bot transport."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from bots.baseline import KriegspielRandom, PerudoRandom, PerudoSimple
from bots.perudo.expert.hint import perudo_hint
from bots.sdk.bot import Decision
from bots.sdk.remote import RemotePlayer, Target, play_remote
from server.games.perudo import Perudo
from server.net.app import UmpireServer
from server.roomcore import core as roomcore_core
from server.rooms.connection import Client
from server.rooms.room import Timing
from tests.eventually import eventually
from tests.processes import alive
from tests.server.conftest import wait_state

KQK = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"


async def test_named_house_bots_play_a_perudo_game(make_server: Any, connect: Any) -> None:
    # a grace longer than a loaded machine's bot start: the stand-in policy must not move
    server = await make_server(timing=Timing(grace=30, autopilot_delay=0.0))
    host = await connect("host", port=server.port)
    room_id = (
        await host.request("create_room", "created", game="perudo", options={"seats": 3}, sit=False)
    )["room"]
    for name in ("perudo-simple", "perudo-random", "perudo-expert"):
        added = await host.request("add_bot", "bot_added", room=room_id, bot=name)
        assert added["bot"] == f"bot-{name}"
    room = await wait_state(server, room_id, timeout=60)
    assert room.game is not None
    assert {seat for seat, _ in room.game.history} == {0, 1, 2}  # every bot client played
    assert [s.player.id if s.player else None for s in room.seats] == [
        "bot-perudo-simple",
        "bot-perudo-random",
        "bot-perudo-expert",
    ]
    assert not any(s.autopilot for s in room.seats)  # the server's autopilot never moved


async def test_a_kriegspiel_house_bot_plays_an_external_bot(
    server: UmpireServer, connect: Any
) -> None:
    host = await connect("host")
    room_id = (
        await host.request(
            "create_room", "created", game="kriegspiel", options={"fen": KQK}, sit=False
        )
    )["room"]
    await host.request("add_bot", "bot_added", room=room_id, bot="kriegspiel-random", seat=1)
    url = f"ws://127.0.0.1:{server.port}"
    results = await asyncio.wait_for(
        play_remote(
            url, lambda: KriegspielRandom(seed=3), name="visitor", target=Target(room=room_id)
        ),
        60,
    )
    room = await wait_state(server, room_id, timeout=60)
    assert len(results) == 1 and results[0].seat == 0
    assert room.game is not None and room.game.outcome is not None
    assert results[0].ranks == list(room.game.outcome.ranks)
    assert {seat for seat, _ in room.game.history} == {0, 1}


async def test_remote_bots_find_or_create_rooms_and_play(server: UmpireServer) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    first = asyncio.create_task(
        play_remote(
            url, PerudoSimple, name="simple", target=Target(game="perudo", options={"seats": 2})
        )
    )
    await eventually(  # the first bot has created a room and sits in it
        lambda: any(s.player for room in server.lobby.rooms.values() for s in room.seats),
        timeout=30,
        what="a seated bot",
    )
    second = await asyncio.wait_for(
        play_remote(
            url,
            lambda: PerudoRandom(seed=1),
            name="random",
            target=Target(game="perudo", options={"seats": 2}),
        ),
        60,
    )
    results = await asyncio.wait_for(first, 60)
    assert len(results) == len(second) == 1
    assert results[0].ranks == second[0].ranks and results[0].seat != second[0].seat


async def test_a_remote_bot_plays_several_games_in_a_room_series(
    server: UmpireServer, connect: Any
) -> None:
    """--games N: after each game the bot looks for the next open room."""
    url = f"ws://127.0.0.1:{server.port}"
    host = await connect("host")
    rooms = []
    for _ in range(2):
        created = await host.request(
            "create_room", "created", game="perudo", options={"seats": 2}, sit=False
        )
        await host.request("add_bot", "bot_added", room=created["room"], bot="perudo-random")
        rooms.append(created["room"])
    results = await asyncio.wait_for(
        play_remote(url, PerudoSimple, name="simple", target=Target(game="perudo"), games=2), 60
    )
    assert len(results) == 2
    for room_id in rooms:
        assert (await wait_state(server, room_id, timeout=60)).state == "finished"


async def test_unknown_house_bots_and_forged_tickets_are_refused(
    server: UmpireServer, connect: Any
) -> None:
    host = await connect("host")
    room_id = (
        await host.request("create_room", "created", game="kriegspiel", options={}, sit=False)
    )["room"]
    await host.send(type="add_bot", room=room_id, bot="deep-blue")
    error = await host.error("unsupported")
    assert "kriegspiel-random" in error["message"] and "perudo" not in error["message"]
    await host.send(type="add_bot", room=room_id, bot="autopilot")
    await host.error("unsupported")
    intruder = await connect("intruder")
    await intruder.send(type="join", room=room_id, seat=0, ticket="guessed-ticket")
    await intruder.error("not_your_seat")


async def test_house_bots_come_back_after_a_restart(
    make_server: Any, connect: Any, db_path: str
) -> None:
    server = await make_server()
    host = await connect("host", port=server.port)
    room_id = (
        await host.request("create_room", "created", game="perudo", options={"seats": 2}, sit=True)
    )["room"]
    await host.request("add_bot", "bot_added", room=room_id, bot="perudo-simple")
    room = server.lobby.rooms[room_id]
    await eventually(lambda: room.game, what="the game's start")
    await host.close()
    await server.close()
    again = await make_server(db=db_path)
    restored = again.lobby.rooms[room_id]
    # the host is gone: after the grace period the autopilot plays its seat, while the
    # house bot client, started again, plays its own
    room = await wait_state(again, room_id, timeout=60)
    assert room is restored
    bot_seat = next(i for i, s in enumerate(room.seats) if s.bot == "perudo-simple")
    restart_index = len(room.game.history)
    assert restart_index > 0
    assert any(seat == bot_seat for seat, _ in room.game.history)


async def test_hints_come_from_the_seats_own_knowledge(server: UmpireServer, connect: Any) -> None:
    ana = await connect("ana")
    room_id = (await ana.request("create_room", "created", game="perudo", options={"seats": 2}))[
        "room"
    ]
    await ana.send(type="hint", room=room_id)
    await ana.error("bad_state")  # not started yet
    bob = await connect("bob")
    await bob.request("join", "joined", room=room_id)
    hint = await ana.request("hint", "hint", room=room_id, lang="it", bluff=0.2)
    assert hint["seat"] == 0 and hint["thresholds"]["bluff"] == 0.2
    room = server.lobby.rooms[room_id]
    assert isinstance(room.game, Perudo)
    assert hint["action"] in [str(a) for a in room.game.legal_actions(0)] or not hint["your_turn"]
    assert isinstance(hint["explanation"], str) and hint["explanation"]
    # the advice depends only on what seat 0 knows: re-rolling seat 1's dice changes nothing
    # the advisor is handed the seat's projections only: its snapshot and its stream
    view, events = room.core.knowledge(0)
    assert view == room.game.view(0)
    assert events and all(e.get("type") for e in events)
    before = perudo_hint(view, events, seed=5)
    room.game.round.dice[1] = [6 if d != 6 else 2 for d in room.game.round.dice[1]]
    assert room.core.knowledge(0) == (view, events)
    assert perudo_hint(*room.core.knowledge(0), seed=5) == before
    spectator = await connect("eve")
    await spectator.request("watch", "watching", room=room_id)
    await spectator.send(type="hint", room=room_id)
    await spectator.error("not_seated")
    k_room = (await ana.request("create_room", "created", game="kriegspiel", options={}))["room"]
    await bob.request("join", "joined", room=k_room)
    await ana.send(type="hint", room=k_room)
    await ana.error("unsupported")


async def test_a_tournament_through_the_server(server: UmpireServer) -> None:
    from bots.tools.arena import schedule, standings, stream_remote

    url = f"ws://127.0.0.1:{server.port}"
    specs = schedule("perudo", {"seats": 3}, ["perudo-simple", "perudo-random"], 3, 4, "t")
    played = [p async for p in stream_remote(specs, url, parallel=2)]
    assert sorted(p.spec.index for p in played) == [0, 1, 2, 3]
    for game in played:
        assert sorted(game.ranks) == [1, 2, 3]
    table = standings(played, ["perudo-simple", "perudo-random"])
    assert sum(line.games for line in table) == 12
    finished = [r for r in server.lobby.rooms.values() if r.state == "finished"]
    assert len(finished) == 4 and not any(r.settings.public for r in finished)


async def test_a_stand_in_bot_plays_for_an_absent_player_until_they_return(
    make_server: Any, connect: Any
) -> None:

    server = await make_server(timing=Timing(grace=0.2, autopilot_delay=0.0))
    ana = await connect("ana", port=server.port)
    bob = await connect("bob", port=server.port)
    room_id = (await ana.request("create_room", "created", game="perudo", options={"seats": 2}))[
        "room"
    ]
    await bob.request("join", "joined", room=room_id)
    room = server.lobby.rooms[room_id]
    token = bob.token
    await bob.close()
    # after the grace period a house bot client takes over
    stand_in = await eventually(lambda: room.stand_ins().get(1), timeout=5, what="a stand-in")
    assert stand_in.player is not None and stand_in.player.id == "bot-perudo-simple"
    assert room.seats[1].autopilot and room.seats[1].player.name == "bob"
    # ana plays on; bob's turns are played by the stand-in, well before the fallback policy

    async def bobs_seat_moved() -> bool:
        if room.game.to_move == 0:  # ana bids whenever it is her turn
            bid = next(str(a) for a in room.game.legal_actions(0) if "x" in str(a))
            await ana.send(type="act", room=room_id, action=bid)
            await ana.expect("ack")
        return any(seat == 1 for seat, _ in room.game.history)

    await eventually(bobs_seat_moved, timeout=5, what="a move of bob's seat")
    # bob comes back: the stand-in is sent away and the seat is his again
    back = await connect(None, port=server.port)
    await back.hello("bob", token=token)
    await back.request("resume", "resumed", room=room_id, since=0)
    assert not room.seats[1].autopilot
    assert not room.stand_ins()
    assert room.connected(1)


async def test_a_stand_in_bot_makes_one_move_when_the_turn_time_runs_out(
    make_server: Any, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fallback policy would move STANDIN_FALLBACK seconds after the stand-in is
    # sent: put it out of the test's reach, so that only the bot can make this move, on
    # a loaded machine too (its runner process starting took more than 2 s once).
    monkeypatch.setattr(roomcore_core, "STANDIN_FALLBACK", 600.0)
    server = await make_server(timing=Timing(grace=30, autopilot_delay=0.0))
    ana = await connect("ana", port=server.port)
    bob = await connect("bob", port=server.port)
    room_id = (
        await ana.request(
            "create_room", "created", game="perudo", options={"seats": 2}, turn_time=0.3
        )
    )["room"]
    await bob.request("join", "joined", room=room_id)
    room = server.lobby.rooms[room_id]
    first = room.game.to_move
    await eventually(lambda: room.game.history, timeout=60, what="the stand-in's move")
    assert room.game.history[0].seat == first
    await eventually(lambda: room.stand_ins(), equals={}, timeout=30)
    assert not room.seats[first].autopilot  # a timeout moves once; the player is not away


class RecordingRandom(PerudoRandom):
    """A random Perudo bot that remembers every projection it observed."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.seen: list[dict[str, Any]] = []

    async def observe(self, event: dict[str, Any]) -> None:
        self.seen.append(event)


class HeldRandom(RecordingRandom):
    """A recording random bot that holds its second decision until released: while it
    thinks, the game waits for it, so the test drops its connection at a known point
    (mid-game, its seat connected) however fast or slow the machine is."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.decisions = 0
        self.holding = asyncio.Event()
        self.release = asyncio.Event()

    async def decide(self, decision: Decision) -> str:
        self.decisions += 1
        if self.decisions == 2:
            self.holding.set()
            await self.release.wait()
        return await super().decide(decision)


async def test_a_remote_bot_reconnects_and_resumes_after_a_dropped_connection(
    server: UmpireServer, connect: Any
) -> None:
    host = await connect("host")
    room_id = (
        await host.request("create_room", "created", game="perudo", options={"seats": 2}, sit=False)
    )["room"]
    await host.request("add_bot", "bot_added", room=room_id, bot="perudo-random", seat=0)
    bot = HeldRandom(seed=2)
    url = f"ws://127.0.0.1:{server.port}"
    task = asyncio.create_task(
        play_remote(url, lambda: bot, name="fragile", target=Target(room=room_id, seat=1))
    )
    room = server.lobby.rooms[room_id]
    await asyncio.wait_for(bot.holding.wait(), 30)  # mid-game, and the game waits for it
    assert room.game is not None and room.game.history and room.state == "playing"
    victim = next(
        c for c, s in room.viewers.items() if s == 1 and c.player and c.player.name == "fragile"
    )
    assert isinstance(victim, Client) and victim.ws is not None
    victim.ws.transport.abort()  # the network drops: no close frame
    bot.release.set()
    results = await asyncio.wait_for(task, 30)
    assert results[0].seat == 1 and room.state == "finished"
    stream = [e.view(1) for e in room.log if e.view(1) is not None]
    assert bot.seen == stream  # every event exactly once, in order, across the drop
    assert len({c for c, s in room.viewers.items() if s == 1}) <= 1


async def test_remote_bots_receive_the_other_seats_public_profiles(
    server: UmpireServer, connect: Any
) -> None:
    from bots.perudo.expert import PerudoExpert

    ana = await connect("ana")
    room_id = (await ana.request("create_room", "created", game="perudo", options={"seats": 2}))[
        "room"
    ]
    expert = PerudoExpert(level="auto", seed=1)
    url = f"ws://127.0.0.1:{server.port}"
    task = asyncio.create_task(
        play_remote(url, lambda: expert, name="expert", target=Target(room=room_id))
    )
    try:
        await eventually(lambda: hasattr(expert, "info"), timeout=5, what="the bot's info")
        assert expert.info.profiles[0]["player"]["name"] == "ana"
        assert 1 not in expert.info.profiles  # not its own
        profile = expert.named_profiles["ana"]
        assert profile.human and profile.games == 0
        assert expert.level == "normal"  # auto, with no history of ana yet
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def test_public_perudo_statistics_for_the_expert() -> None:
    from bots.perudo.expert import OpponentProfile
    from server.games.perudo import PerudoConfig, new_game
    from server.store import stats

    game, events = new_game(PerudoConfig.from_options({"seats": 3}), b"stats")
    game.round.dice = [[2, 2, 2, 2, 2], [3, 3, 3, 3, 3], [4, 4, 4, 4, 4]]
    starter = game.to_move
    assert starter is not None
    bluffer = starter
    events += game.apply(starter, "6x6")  # nobody holds a six (nor an ace)
    challenger = game.to_move
    assert challenger is not None
    events += game.apply(challenger, "dudo")
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        events += game.apply(seat, game.legal_actions(seat)[-1])
    assert game.outcome is not None
    per_seat = stats.compute("perudo", events, game.outcome, 3)
    assert per_seat[bluffer]["bluffs"] >= 1 and per_seat[bluffer]["bids_revealed"] >= 1
    assert all(s["players"] == 3 for s in per_seat)
    assert sum(s.get("dudo_chances", 0) for s in per_seat) == sum(
        s.get("bids", 0) for s in per_seat
    )
    frame = {"player": {"name": "x", "bot": False}, "stats": {"perudo": per_seat[bluffer]}}
    profile = OpponentProfile.from_server(frame)
    assert profile.human and profile.bluffs == per_seat[bluffer]["bluffs"]
    assert profile.mean_players == 3.0


async def test_kriegspiel_meta_plays_black_as_a_house_bot(
    server: UmpireServer, connect: Any
) -> None:
    """Over the websocket a bot seated before the start gets no first view: it must know
    its colour from its seat."""
    host = await connect("host")
    fen = "3qk3/8/8/8/8/8/8/4K3 w - - 0 1"
    room_id = (
        await host.request(
            "create_room", "created", game="kriegspiel", options={"fen": fen}, sit=False
        )
    )["room"]
    await host.request("add_bot", "bot_added", room=room_id, bot="kriegspiel-meta", seat=1)
    url = f"ws://127.0.0.1:{server.port}"
    task = asyncio.create_task(
        play_remote(
            url, lambda: KriegspielRandom(seed=5), name="white", target=Target(room=room_id, seat=0)
        )
    )
    room = server.lobby.rooms[room_id]

    def black_attempts() -> int:
        history = room.game.history if room.game is not None else []
        return sum(1 for seat, text in history if seat == 1 and not text.startswith("forfeit"))

    try:
        await eventually(
            lambda: black_attempts() >= 3 or room.state == "finished",
            timeout=30,
            what="three attempts by black",
        )
        assert black_attempts() >= 1
        assert room.game is not None
        assert not any(text.startswith("forfeit") for _, text in room.game.history)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


# -- house bots in their own processes ---------------------------------------------------


def runner_children(pid: int) -> list[int]:
    """The house bot runners started by process ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"bots.tools.house_runner" in cmdline:
            found.append(int(entry.name))
    return found


#: How long a runner whose server was killed may take to exit. It takes a few hundredths
#: of a second alone; once in one full run of the suite (two workers, a loaded machine)
#: it outlived 10 s, and :func:`stacks` now says where it stood when it does.
RUNNER_EXIT = 30.0


def stacks(pids: list[int]) -> str:
    """The Python stacks of the processes ``pids`` still alive (py-spy, a dev tool)."""
    import shutil
    import subprocess
    import sys

    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    dumps = []
    for pid in pids:
        if not alive(pid):
            continue
        done = subprocess.run(
            [spy, "dump", "--pid", str(pid)], capture_output=True, text=True, timeout=30
        )
        dumps.append(f"pid {pid}:\n{done.stdout}{done.stderr}")
    return "\n".join(dumps) or "none alive"


async def metric_text(port: int) -> str:
    """The server's /metrics exposition."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    data = await reader.read()
    writer.close()
    await writer.wait_closed()
    head, _, body = data.decode().partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 200"), head
    return body


def lag_buckets(text: str) -> dict[float, float]:
    """The cumulative counts of umpire_event_loop_lag_seconds by upper bound."""
    out = {}
    for line in text.splitlines():
        if line.startswith("umpire_event_loop_lag_seconds_bucket{"):
            bound = line.split('le="', 1)[1].split('"', 1)[0]
            out[float(bound)] = float(line.rsplit(" ", 1)[1])
    return out


async def test_house_bots_play_in_a_runner_process_not_the_server(
    server: UmpireServer, connect: Any
) -> None:
    host = await connect("host")
    room_id = (
        await host.request(
            "create_room", "created", game="kriegspiel", options={"fen": KQK}, sit=False
        )
    )["room"]
    await host.request("add_bot", "bot_added", room=room_id, bot="kriegspiel-random", seat=1)
    pids = await eventually(server.house.pids, what="a runner (started on the first launch)")
    assert len(pids) == 1 and pids[0] != os.getpid()
    assert runner_children(os.getpid()) == pids
    await host.send(type="add_bot", room=room_id, bot="kriegspiel-meta:nightmare")
    await host.error("unsupported")  # a level the bot does not know


async def test_bots_of_one_kind_relaunched_together_all_come_back(
    make_server: Any, connect: Any, db_path: str
) -> None:
    """The bad_token storm: three bots of one kind (and a stand-in) launched at once after a
    restart all say hello, and all play on."""

    server = await make_server(timing=Timing(grace=60, autopilot_delay=0.0))
    host = await connect("host", port=server.port)
    room_id = (
        await host.request(
            "create_room",
            "created",
            game="perudo",
            options={"seats": 4, "dice_per_player": 3},
            sit=True,
        )
    )["room"]
    for _ in range(3):
        await host.request("add_bot", "bot_added", room=room_id, bot="perudo-random")
    await host.expect("turn", timeout=20)  # the bots wait for the host: mid-game
    await host.close()
    await server.close()
    again = await make_server(db=db_path)
    room = again.lobby.rooms[room_id]
    assert room.game is not None
    restart = len(room.game.history)
    room = await wait_state(again, room_id, timeout=60)
    bot_seats = {i for i, s in enumerate(room.seats) if s.bot == "perudo-random"}
    assert len(bot_seats) == 3
    assert room.game is not None
    after = {seat for seat, _ in room.game.history[restart:]}
    assert bot_seats <= after  # every one of them said hello and played after the restart


async def test_a_runner_killed_under_the_server_is_restarted_and_its_bots_play_on(
    server: UmpireServer, connect: Any
) -> None:
    host = await connect("host")
    room_id = (
        await host.request(
            "create_room", "created", game="kriegspiel", options={"fen": KQK}, sit=False
        )
    )["room"]
    await host.request("add_bot", "bot_added", room=room_id, bot="kriegspiel-random", seat=1)
    room = server.lobby.rooms[room_id]
    url = f"ws://127.0.0.1:{server.port}"
    task = asyncio.create_task(
        play_remote(
            url, lambda: KriegspielRandom(seed=4), name="visitor", target=Target(room=room_id)
        )
    )
    await eventually(
        lambda: room.game and sum(1 for s, _ in room.game.history if s == 1) >= 2,
        timeout=20,
        what="two moves of the house bot",
    )
    (old,) = server.house.pids()
    os.kill(old, signal.SIGKILL)
    results = await asyncio.wait_for(task, 60)
    assert results[0].seat == 0 and room.state == "finished"
    running: list[int | None] = [*server.house.pids()]
    (new,) = running or [None]
    assert new != old


async def test_a_sigkilled_server_leaves_no_runner_and_its_successor_relaunches_bots(
    tmp_path: Path,
) -> None:
    from tests.server.serve import spawn_serve
    from tests.server.wsclient import WsClient

    db = tmp_path / "umpire.db"
    proc, port = await spawn_serve(db)
    try:
        ana = await WsClient.open(port)
        await ana.hello("ana")
        room_id = (
            await ana.request(
                "create_room", "created", game="kriegspiel", options={"fen": KQK}, sit=True
            )
        )["room"]
        await ana.request("add_bot", "bot_added", room=room_id, bot="kriegspiel-random", seat=1)
        await ana.expect("turn", seat=0)  # white (ana) to move; the bot waits, connected
        runners = await eventually(lambda: runner_children(proc.pid), what="a runner")
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        await eventually(  # its standard input closed: the runner exits
            lambda: not any(alive(pid) for pid in runners),
            timeout=RUNNER_EXIT,
            what=lambda: f"the runner's exit ({stacks(runners)})",
        )
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    proc, port = await spawn_serve(db)
    try:
        back = await WsClient.open(port)
        await back.hello("ana", token=ana.token)
        await back.request("resume", "resumed", room=room_id, since=0)
        turn = await back.expect("turn", seat=0)
        await back.send(type="act", room=room_id, action=turn["legal"][0])
        moved = turn["seq"]
        async with asyncio.timeout(20):  # the new server's runner plays black again
            while True:
                frame = await back.next(timeout=20)
                if frame["type"] == "turn" and frame["seq"] > moved:
                    break
                if frame["type"] == "error" and frame["code"] == "illegal":
                    turn = await back.expect("turn", seat=0)
                    await back.send(type="act", room=room_id, action=turn["legal"][0])
        new = runner_children(proc.pid)
        assert new and not set(new) & set(runners)
        await back.close()
    finally:
        proc.kill()
        await proc.wait()


async def test_event_loop_lag_stays_low_while_a_hard_house_bot_thinks(
    server: UmpireServer, connect: Any
) -> None:
    """Issue 14, point 5: the loop is not held up while kriegspiel-meta:hard thinks.
    Hunting a lone king, its mate search takes 0.3 to 0.8 s on some moves (played inside
    the server's loop, 9 of 67 probes woke more than 50 ms late); in its runner process it
    costs the server nothing. The bar is set far from a loaded machine's noise: a test
    asserts no speed, only that the search is not in the loop."""
    host = await connect("host")
    room_id = (
        await host.request(
            "create_room", "created", game="kriegspiel", options={"fen": KQK}, sit=False
        )
    )["room"]
    await host.request("add_bot", "bot_added", room=room_id, bot="kriegspiel-meta:hard", seat=0)
    before = lag_buckets(await metric_text(server.port))
    url = f"ws://127.0.0.1:{server.port}"
    task = asyncio.create_task(
        play_remote(
            url, lambda: KriegspielRandom(seed=8), name="visitor", target=Target(room=room_id)
        )
    )
    room = server.lobby.rooms[room_id]

    def white_attempts() -> int:
        return sum(1 for seat, _ in room.game.history if seat == 0) if room.game else 0

    async def probed() -> dict[float, float] | None:
        """The lag histogram's growth once the hunt (or 12 attempts of it) and at least 3 s
        of probes are over."""
        after = lag_buckets(await metric_text(server.port))
        probes = after[math.inf] - before[math.inf]
        over = white_attempts() >= 12 or room.state == "finished"
        return {k: v - before[k] for k, v in after.items()} if probes >= 60 and over else None

    try:
        grown = await eventually(probed, timeout=60, interval=0.2, what="the hunt")
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert white_attempts() >= 8
    # A search in the server's loop makes several probes wake 0.3 to 0.8 s late; a loaded
    # test machine makes a probe 50 ms late now and then, so the bar is 0.25 s.
    probes = grown[math.inf]
    late = probes - grown[0.25]
    assert late <= 0.01 * probes, f"{late:.0f} of {probes:.0f} probes woke > 250 ms late"


class Paced(RemotePlayer):
    """A remote player that logs its decisions and per-turn pauses instead of waiting."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log: list[tuple[str, ...]] = []

    async def pause(self, seconds: float) -> None:
        self.log.append(("pause",))


class FirstTriesA8(KriegspielRandom):
    """Tries the rook's a1a8 first (through a black pawn: an illegal attempt), then plays
    at random."""

    def __init__(self, player: Paced) -> None:
        super().__init__(seed=6)
        self.player = player

    async def decide(self, decision: Any) -> str:
        first = not self.player.log
        action = "a1a8" if first else await super().decide(decision)
        self.player.log.append(("decide", action))
        return action


async def test_an_external_bot_pauses_once_per_turn_never_before_a_retry(
    server: UmpireServer, connect: Any
) -> None:
    host = await connect("host")
    fen = "4k3/8/8/p7/8/8/8/R3K3 w - - 0 1"
    room_id = (
        await host.request(
            "create_room", "created", game="kriegspiel", options={"fen": fen}, sit=False
        )
    )["room"]
    await host.request("add_bot", "bot_added", room=room_id, bot="kriegspiel-random", seat=1)
    player: Paced = Paced(
        f"ws://127.0.0.1:{server.port}",
        lambda: FirstTriesA8(player),
        name="paced",
        target=Target(room=room_id, seat=0),
        think=0.01,
    )
    task = asyncio.create_task(player.play(1))
    try:
        await eventually(lambda: len(player.log) >= 4 or task.done(), timeout=20, what="four turns")
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    room = server.lobby.rooms[room_id]
    assert room.game is not None
    assert room.game.history[0].seat == 0 and room.game.history[0].action == "a1a8"
    assert player.log[:2] == [("decide", "a1a8"), ("pause",)]  # the turn's first attempt
    assert player.log[2][0] == "decide" and player.log[3][0] == "decide"  # the retry: no pause

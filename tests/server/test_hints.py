"""Hints off the room's task: the advisor works in a house runner process and the room
only forwards the seat's knowledge and the answer.

The advisor here is deliberately slow (:mod:`tests.server.gated_advisor`): each call
waits at the test's gate, so a hint is in flight exactly as long as the test wants, and
what happens meanwhile is shown by the frames that arrive, over real sockets.
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from bots.perudo.expert.hint import perudo_hint
from bots.tools.house_runner import load_advisor
from server.net.app import UmpireServer
from server.rooms.house import HINT_TIMEOUT
from server.rooms.room import Timing
from server.root import ADVISOR
from tests.eventually import eventually
from tests.server.gated_advisor import GATE, GATED, Gate
from tests.server.wsclient import WsClient

#: no stand-in may start while a test holds a hint (a disconnected seat keeps waiting)
PATIENT = Timing(grace=60, autopilot_delay=0.0, finished_ttl=30)


@pytest.fixture
async def gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Gate]:
    """The gate every call of the gated advisor waits at (named in the environment the
    server's runner inherits)."""
    held = Gate(tmp_path / "gate")
    await held.open()
    monkeypatch.setenv(GATE, str(held.path))
    yield held
    await held.close()


class Table(NamedTuple):
    """A two-seat Perudo game in progress on a server with the gated advisor."""

    server: UmpireServer
    room: str
    ana: WsClient  #: seat 0, the host
    bob: WsClient  #: seat 1


@pytest.fixture
async def table(make_server: Any, connect: Any, gate: Gate) -> Table:
    """Ana and Bob playing Perudo on a server whose hints wait at ``gate``."""
    server: UmpireServer = await make_server(advisor=GATED, timing=PATIENT)
    return Table(server, *await perudo_room(connect, server.port, "ana", "bob"))


async def perudo_room(connect: Any, port: int, host: str, guest: str) -> tuple[str, Any, Any]:
    """A two-seat Perudo game in progress: its room id, its host (seat 0) and guest."""
    first = await connect(host, port=port)
    room = (await first.request("create_room", "created", game="perudo", options={"seats": 2}))[
        "room"
    ]
    second = await connect(guest, port=port)
    await second.request("join", "joined", room=room)
    return room, first, second


async def bid(server: UmpireServer, room: str, players: list[WsClient]) -> WsClient:
    """The seat to move bids; return its client once every player has the bid's event."""
    game = server.lobby.rooms[room].game
    assert game is not None and game.to_move is not None
    mover = players[game.to_move]
    turn = await mover.expect("turn", room=room)
    await mover.send(type="act", room=room, action=next(a for a in turn["legal"] if "x" in a))
    ack = await mover.expect("ack", room=room)
    for player in players:
        if player is not mover:
            await player.expect("event", room=room, seq=ack["seq"])
    return mover


def last_seq(client: WsClient, room: str) -> int:
    """The number of the newest event ``client`` has of ``room``."""
    seqs = [f["seq"] for f in client.frames if f["type"] == "event" and f["room"] == room]
    return max(seqs, default=0)


def answers(client: WsClient) -> list[dict[str, Any]]:
    """The hints and errors ``client`` has received."""
    return [f for f in client.frames if f["type"] in ("hint", "error")]


async def test_hints_in_flight_delay_no_frame_of_any_room(
    table: Table, connect: Any, gate: Gate
) -> None:
    server, a, ana, bob = table
    b, carl, dave = await perudo_room(connect, server.port, "carl", "dave")
    opened = server.lobby.rooms[a].viewer_seq(0)
    asked_at = (await ana.expect("event", room=a, seq=opened))["seq"]  # (all of the opening)
    await ana.send(type="hint", room=a, ref=1)
    await bob.send(type="hint", room=a, lang="it", ref=1)
    first, second = await gate.begun(), await gate.begun()  # both hints are being worked out
    # meanwhile the askers' room plays on (each asker bids), so does the other room, and
    # the asker's connection answers its other requests
    await ana.request("ping", "pong")
    movers = {await bid(server, a, [ana, bob]), await bid(server, a, [ana, bob])}
    assert movers == {ana, bob}
    await bid(server, b, [carl, dave])
    assert not answers(ana) and not answers(bob)
    await gate.let_go(first)
    await gate.let_go(second)
    # each answer goes to its own asker, whichever came first
    ana_hint, bob_hint = await ana.expect("hint"), await bob.expect("hint")
    assert (ana_hint["room"], ana_hint["seat"], ana_hint["ref"]) == (a, 0, 1)
    # each hint says the position it was worked out for: before the two bids, so stale now
    assert ana_hint["seq"] == asked_at < last_seq(ana, a)
    assert (bob_hint["room"], bob_hint["seat"], bob_hint["ref"]) == (a, 1, 1)
    assert server.house.hints_in_flight == 0


async def test_two_hints_at_a_time_per_connection(table: Table, gate: Gate) -> None:
    _, a, ana, _ = table
    await ana.send(type="hint", room=a, ref=1)
    await ana.send(type="hint", room=a, ref=2)
    calls = [await gate.begun(), await gate.begun()]
    await ana.send(type="hint", room=a, ref=3)
    refused = await ana.error("busy")
    assert (refused["ref"], refused["room"]) == (3, a)
    for call in calls:
        await gate.let_go(call)
    assert {(await ana.expect("hint"))["ref"] for _ in calls} == {1, 2}


async def test_a_hint_slower_than_its_budget_is_refused_and_forgotten(
    table: Table, gate: Gate
) -> None:
    server, a, ana, _ = table
    await ana.send(type="hint", room=a, ref=1)  # (the runner is up after this one)
    await gate.let_go(await gate.begun())
    await ana.expect("hint")
    server.house.hint_timeout = 0.01  # no answer can come in time: the gate stays shut
    await ana.send(type="hint", room=a, ref=2)
    refused = await ana.error("busy")
    assert refused["ref"] == 2 and "no hint within" in refused["message"]
    # a worker thread cannot be stopped: the hint counts against the limit until it is done
    assert server.house.hints_in_flight == 1
    await gate.let_go(await gate.begun())  # its answer comes late, to nobody
    await eventually(lambda: server.house.hints_in_flight, equals=0, what="the late answer")
    server.house.hint_timeout = HINT_TIMEOUT
    await ana.send(type="hint", room=a, ref=3)
    await gate.let_go(await gate.begun())
    assert (await ana.expect("hint"))["ref"] == 3
    assert [f["ref"] for f in answers(ana)] == [1, 2, 3]  # (the late answer was not sent)


async def test_a_runner_that_dies_mid_hint_fails_it_and_the_next_hint_works(
    table: Table, gate: Gate
) -> None:
    server, a, ana, _ = table
    await ana.send(type="hint", room=a, ref=1)
    await gate.begun()
    [pid] = server.house.pids()
    os.kill(pid, signal.SIGKILL)
    refused = await ana.error("busy")
    assert refused["ref"] == 1 and "stopped" in refused["message"]
    await ana.send(type="hint", room=a, ref=2)  # a new runner answers
    await gate.let_go(await gate.begun())
    assert (await ana.expect("hint"))["ref"] == 2
    assert server.house.pids() != [pid]


async def test_an_asker_who_leaves_drops_the_hint(table: Table, gate: Gate) -> None:
    server, a, ana, bob = table
    await ana.send(type="hint", room=a, ref=1)
    call = await gate.begun()
    await ana.close()
    while (await bob.expect("room", room=a))["seats"][0]["connected"]:
        pass  # (the room frames from before ana left)
    assert server.house.hints_in_flight == 1  # nobody waits; it counts until it is done
    await gate.let_go(call)  # its answer goes nowhere
    await eventually(lambda: server.house.hints_in_flight, equals=0, what="the dropped answer")
    await bob.send(type="hint", room=a, ref=7)
    await gate.let_go(await gate.begun())
    assert (await bob.expect("hint"))["ref"] == 7


async def test_a_warm_server_warms_its_advisor_up_at_start_and_hints_wait_for_it(
    make_server: Any, connect: Any, gate: Gate
) -> None:
    server = await make_server(advisor=GATED, timing=PATIENT, warm_hints=True)
    warming = await gate.begun()  # no hint asked yet: the runner started with the server
    a, ana, _ = await perudo_room(connect, server.port, "ana", "bob")
    await ana.send(type="hint", room=a, ref=1)  # (one that began now would be refused)
    await gate.let_go(warming)
    await gate.let_go(await gate.begun())
    assert (await ana.expect("hint"))["ref"] == 1


def test_the_composition_root_names_the_experts_advice() -> None:
    assert load_advisor(ADVISOR) is perudo_hint

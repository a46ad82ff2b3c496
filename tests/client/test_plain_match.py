"""Matches in ``--plain`` mode against a real server: ``wait match`` returns when the
server seats you (the room is then the current one: ``wait turn`` and actions follow), and
every bad matchmaking input is one line, nothing sent."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Callable
from typing import Any

from client_cli.plain import PlainClient
from client_cli.session import Session
from server.net.app import UmpireServer
from tests.client.pilot import RecordingSession


async def test_wait_match_then_play_the_room_the_server_opened(
    server: UmpireServer, connect: Callable[..., Any]
) -> None:
    out = io.StringIO()
    session = Session(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    client = PlainClient(session, out, wait_timeout=10)
    bob = await connect("bob")
    rooms: list[str] = []

    async def script() -> AsyncIterator[str]:
        yield "rematch"  # not in a room: one line, nothing sent
        ana = await server.identities.get(str((session.state.player or {})["id"]))
        bob_player = await server.identities.get(bob.player["id"])
        assert ana is not None and bob_player is not None
        room = await server.lobby.open_match(
            "kriegspiel", {"rules": "wild16"}, [ana, bob_player], source="seek", ref="s-1"
        )
        rooms.append(room.id)
        yield "wait match"
        await bob.expect("match", room=room.id)
        await bob.request("resume", "resumed", room=room.id, since=0)
        yield "wait turn"
        yield "legal"
        yield "e2e4"
        await bob.expect("turn", room=room.id)
        await bob.request("act", "ack", room=room.id, action="resign")
        yield "wait end"
        yield "decline"  # the game is over: a rematch may be declined (the server's word)
        yield "quit"

    assert await client.run(script()) == 0
    text = out.getvalue()
    assert "Not sent: rematch: only in a finished game's room (open it first)" in text
    assert f"Matched (seek) with bob: room {rooms[0]}, seat 0. Your game opens." in text
    assert "Legal now: " in text
    assert session.state.current == rooms[0]
    assert session.state.rooms[rooms[0]].over


async def test_matchmaking_commands_in_italian_and_what_is_sent(server: UmpireServer) -> None:
    out = io.StringIO()
    session = RecordingSession(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    session.state.lang = "it"
    client = PlainClient(session, out, wait_timeout=10)
    script = [
        "seek",
        "seek scacchi",
        "seek kriegspiel range 1400",
        "seek kriegspiel fill mai",
        "cancel",
        "take",
        "tournament",
        "quit",
    ]

    async def feed() -> AsyncIterator[str]:
        for line in script:
            yield line

    assert await client.run(feed()) == 0
    said = [line for line in out.getvalue().splitlines() if line.startswith("Not sent: ")]
    games = ", ".join(session.state.catalogue.names if session.state.catalogue else [])
    assert said == [
        "Not sent: seek GIOCO [chiave=valore ...] [rated|casual] [range MIN-MAX] [fill SECONDI]",
        f"Not sent: i giochi sono {games}, non 'scacchi'",
        "Not sent: range è MIN-MAX in punti, come range 1400-1600, non '1400'",
        "Not sent: fill è un numero di secondi da 1 a 3600, non 'mai'",
        "Not sent: non hai proposte aperte: creane una con seek GIOCO",
        "Not sent: take ID: accetta la proposta aperta ID (seeks le elenca)",
        "Not sent: tournament ID: classifica e turni (tournaments li elenca)",
    ]
    kinds = {m.get("type") for m in session.sent}
    assert not kinds & {"seek", "cancel_seek", "take_seek", "tournament"}

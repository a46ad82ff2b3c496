"""``--plain`` mode driven by scripted input against a real server."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

from client_cli.games.perudo.text import model_of
from client_cli.plain import PlainClient
from client_cli.session import Session
from client_cli.state import ClientState
from server.net.app import UmpireServer
from tests.client.pilot import RecordingSession


def _client(server: UmpireServer, name: str) -> tuple[PlainClient, io.StringIO]:
    out = io.StringIO()
    session = Session(f"ws://127.0.0.1:{server.port}", name, retry=0.05)
    return PlainClient(session, out, wait_timeout=10), out


async def test_scripted_perudo_game_against_a_bot(server: UmpireServer) -> None:
    client, out = _client(server, "ana")
    state = client.session.state

    async def script() -> AsyncIterator[str]:
        yield "help"
        yield "create perudo seats=2 dice=1 private"
        yield "show"
        yield "bot no-such-bot"
        yield "bot autopilot"
        yield "wait start"
        for _ in range(20):
            yield "wait turn"
            room = state.current_room
            assert room is not None
            if room.over:
                break
            yield "7x9"  # refused before sending: not a bid (faces are 1 to 6)
            yield "dudo" if model_of(room).table.last_bid else room.legal[0]
        yield "wait end"
        yield "replay"
        yield "quit"

    assert await client.run(script()) == 0
    text = out.getvalue()
    assert "Perudo" in text
    assert "invite code:" in text
    assert "no house bot 'no-such-bot'" in text
    assert "Not sent: '7x9' is not a bid" in text
    assert "Your dice:" in text
    assert "Reveal:" in text
    assert "Game over:" in text
    assert "Replay of room" in text
    assert "Every cup shown during the game matches the seed." in text
    assert "The seed matches its commitment (sha256)." in text


async def test_commands_need_a_room_and_lobby_lists(server: UmpireServer) -> None:
    client, out = _client(server, "bob")

    async def script() -> AsyncIterator[str]:
        yield "start"
        yield "create kriegspiel rules=english"
        yield "leave"
        yield "create perudo seats=3"
        yield "rooms"
        yield "frobnicate"
        yield "join nosuchroom"

    assert await client.run(script()) == 0
    text = out.getvalue()
    assert "Not sent: start: join, watch or create a room first" in text
    assert "Left room" in text
    assert "perudo" in text and "1/3 seats" in text
    assert "unknown command 'frobnicate'" in text
    assert "Refused (no_such_room)" in text


async def test_the_lobby_lists_a_page_at_a_time(server: UmpireServer) -> None:
    """The server lists 30 rooms a page (issue 34): ``rooms`` shows the first page and
    how to see the next, ``rooms 2`` the next one."""
    from server.players.identity import Player
    from server.rooms.room import Settings

    host = Player("p-host", "host", False)
    server.lobby.max_rooms_per_player = 40
    for _ in range(35):
        await server.lobby.create(host, "perudo", {"seats": 2}, Settings())
    client, out = _client(server, "cy")

    async def script() -> AsyncIterator[str]:
        yield "rooms"
        yield "rooms 2"

    assert await client.run(script()) == 0
    text = out.getvalue()
    assert "Rooms 1-30 of 35: rooms 2 for the next page" in text
    assert "Rooms 31-35 of 35\n" in text
    assert client.session.state.lobby_offset == 30


async def test_say_chats_and_markup_stays_text(server: UmpireServer) -> None:
    client, out = _client(server, "ana")

    async def script() -> AsyncIterator[str]:
        yield "say nobody to hear"  # refused before sending: not in a room
        yield "create perudo seats=2"
        yield "say Hello <b>there</b> [red]x[/red]"
        yield "say"

    assert await client.run(script()) == 0
    text = out.getvalue()
    assert "Not sent: say: join, watch or create a room first" in text
    assert "ana (table): Hello <b>there</b> [red]x[/red]" in text
    assert "Not sent: say TEXT" in text


async def test_a_game_told_in_italian(server: UmpireServer) -> None:
    out = io.StringIO()
    url = f"ws://127.0.0.1:{server.port}"
    session = RecordingSession(url, "ana", retry=0.05, state=ClientState(lang="it"))
    client = PlainClient(session, out, wait_timeout=10)
    state = session.state

    async def script() -> AsyncIterator[str]:
        yield "create perudo seats=2 dice=1"
        yield "bot autopilot"
        yield "wait turn"
        yield "hint"
        for _ in range(20):
            room = state.current_room
            assert room is not None
            if room.over:
                break
            yield "dudo" if model_of(room).table.last_bid else room.legal[0]
            yield "wait turn"
        yield "quit"

    assert await client.run(script()) == 0
    text = out.getvalue()
    assert state.catalogue is not None and state.catalogue.lang == "it"
    assert "Si comincia: 2 giocatori, 1 dado a testa." in text
    assert "Partita finita: vince " in text
    assert [m.get("lang") for m in session.sent if m["type"] == "hint"] == ["it"]

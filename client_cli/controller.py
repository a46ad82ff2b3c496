"""Carry out commands over a session: the part of the UI logic that plain mode and the TUI share.

:func:`send_command` sends a parsed command's message and turns the reply (or the error)
into sentences; :func:`fetch_replay` collects a finished game from the server.
"""

from __future__ import annotations

from typing import Any

from client_cli import games
from client_cli.commands import Command
from client_cli.games import Replay
from client_cli.render import lobby_lines
from client_cli.session import Session, SessionError

Json = dict[str, Any]

REPLIES = {
    "list_rooms": "rooms",
    "create_room": "created",
    "join": "joined",
    "watch": "watching",
    "leave": "left",
    "start": "started",
    "add_bot": "bot_added",
    "act": "ack",
    "hint": "hint",
    "profile": "profile",
    "resume": "resumed",
    "ping": "pong",
}

#: Seconds to wait for an answer; a hint is worked out away from the room, and the server
#: answers ``busy`` after its own limit (10 s), so the client waits longer than that.
TIMEOUTS = {"hint": 20.0}


def explain_error(message: Json, error: SessionError) -> str:
    """A refusal in words, with advice for the common cases."""
    code = error.code
    kind = message.get("type")
    if kind == "add_bot" and code == "unsupported":
        # (the server's message lists the names it offers for this room's game)
        return f"Not added: {error}."
    if kind == "hint" and code in ("unknown_type", "bad_message", "unsupported"):
        return f"No hint available here ({code}: {error})."
    return f"Refused ({code}): {error}"


async def send_command(session: Session, command: Command) -> tuple[Json | None, list[str]]:
    """Send ``command.message``; return the reply and sentences for the player."""
    message = command.message
    assert message is not None
    try:
        reply = await session.request(message, TIMEOUTS.get(str(message.get("type")), 10.0))
    except SessionError as exc:
        return None, [explain_error(message, exc)]
    lines: list[str] = []
    if reply.get("type") == "rooms":
        lines += lobby_lines(reply.get("rooms", []), games.flavour)
    elif reply.get("type") == "profile":
        stats = reply.get("stats", {})
        lines.append(f"Profile of {reply['player']['name']}:")
        for game, numbers in stats.items():
            summary = ", ".join(f"{k} {v}" for k, v in sorted(numbers.items()))
            lines.append(f"  {game}: {summary}")
    return reply, lines


async def fetch_replay(session: Session, room_id: str) -> Replay:
    """Collect a finished game (its whole stream and final view) and build its replay."""
    room = session.state.rooms.get(room_id)
    complete = (
        room is not None
        and room.over
        and set(room.history) == set(range(1, room.seq + 1))
        and room.model.replay_ready()
    )
    if not complete:
        current = session.state.current
        watch: Json = {"type": "watch", "room": room_id}
        await session.request(watch)
        room = session.state.room(room_id)
        if not room.over:
            raise SessionError("the game is not over yet: replays come after the end", "bad_state")
        resume: Json = {"type": "resume", "room": room_id, "since": 0}
        if room.invite and room.seat is None:
            resume["invite"] = room.invite
        await session.request(resume)
        session.state.current = current or room_id
    assert room is not None
    events = [room.history[seq] for seq in sorted(room.history)]
    return games.game(room.game).replay(room, events)

"""Carry out commands over a session: the part of the UI logic that plain mode and the TUI share.

:func:`send_command` sends a parsed command's message and turns the reply (or the error)
into sentences; :func:`fetch_replay` collects a finished game from the server.
"""

from __future__ import annotations

from typing import Any

from client_cli import accounts, games, matchmaking
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
    "leaderboard": "leaderboard",
    "register": "account",
    "change_password": "account",
    "login": "welcome",
    "logout": "logged_out",
    "resume": "resumed",
    "ping": "pong",
    "seek": "seek_added",
    "cancel_seek": "seek_cancelled",
    "seeks": "seeks",
    "take_seek": "match",
    "rematch": "rematch",
    "decline_rematch": "rematch_declined",
    "tournaments": "tournaments",
    "tournament": "tournament",
    "join_tournament": "tournament",
    "leave_tournament": "tournament",
}

#: Seconds to wait for an answer; a hint is worked out away from the room, and the server
#: answers ``busy`` after its own limit (10 s), so the client waits longer than that.
TIMEOUTS = {"hint": 20.0}


#: Requests whose refusals :func:`client_cli.accounts.explain` words in the player's language.
ACCOUNT_REQUESTS = {"register", "login", "change_password", "logout", "profile", "leaderboard"}


def explain_error(message: Json, error: SessionError, lang: str = "en") -> str:
    """A refusal in words, with advice for the common cases."""
    code = error.code
    kind = message.get("type")
    if code == "not_connected":  # logged out or refused: the sentence says what to do
        return f"{error}"
    if kind == "change_password" and code == "bad_login":
        return accounts.words(lang)("err_bad_old")
    if kind in ACCOUNT_REQUESTS or code == "account_required":
        return accounts.explain(code, str(error), lang)
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
        return None, [explain_error(message, exc, session.state.lang)]
    lines: list[str] = []
    lang = session.state.lang
    if reply.get("type") == "rooms":
        rooms = reply.get("rooms", [])
        lines += lobby_lines(
            rooms, games.flavour, int(reply.get("offset") or 0), int(reply.get("total") or 0)
        )
    elif reply.get("type") == "profile":
        lines += accounts.profile_lines(reply, lang)
    elif reply.get("type") == "leaderboard":
        lines += accounts.leaderboard_lines(reply, lang)
    elif message.get("type") in matchmaking.REQUESTS:
        lines += matchmaking.reply_lines(message, reply, session.state)
    elif reply.get("type") == "logged_out":
        lines.append(accounts.words(lang)("logged_out", count=int(reply.get("revoked") or 0)))
    return reply, lines


def account_message(kind: str, fields: dict[str, str], lang: str = "en") -> Json:
    """The message of ``register``, ``login`` or ``password`` from what the player typed in
    its form (``name``, ``password``, ``again``, ``old``); raise ValueError, in the
    player's language, for what the server would refuse anyway."""
    say = accounts.words(lang)
    name = fields.get("name", "").strip()
    if kind == "login":
        if not name:
            raise ValueError(say("name_blank"))
        if not fields.get("password"):
            raise ValueError(say("password_blank"))
        return {"type": "login", "v": 1, "name": name, "password": fields["password"]}
    new = fields.get("password", "")
    if kind == "password" and not fields.get("old"):
        raise ValueError(say("password_blank"))
    problem = accounts.password_problem(new, lang)
    if problem is not None:
        raise ValueError(problem)
    if fields.get("again") != new:
        raise ValueError(say("password_mismatch"))
    if kind == "password":
        return {"type": "change_password", "old": fields["old"], "new": new}
    message: Json = {"type": "register", "password": new}
    if name:
        message["name"] = name
    return message


async def run_account(
    session: Session, kind: str, fields: dict[str, str]
) -> tuple[Json | None, list[str]]:
    """Carry out ``register``, ``login`` or ``password`` with the form's fields; return the
    reply and one sentence (the reason, when refused or not sent)."""
    lang = session.state.lang
    say = accounts.words(lang)
    try:
        message = account_message(kind, fields, lang)
    except ValueError as exc:
        return None, [f"{exc}"]
    try:
        if kind == "login":
            reply = await session.login(message["name"], message["password"])
        else:
            reply = await session.request(message)
    except SessionError as exc:
        return None, [explain_error(message, exc, lang)]
    name = str((reply.get("player") or {}).get("name") or "")
    if kind == "login":
        return reply, [say("logged_in", name=name)]
    if kind == "register":
        return reply, [say("registered", name=name)]
    return reply, [say("password_changed")]


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
        await session.request_from_start(resume)
        session.state.current = current or room_id
    assert room is not None
    events = [room.history[seq] for seq in sorted(room.history)]
    return games.game(room.game).replay(room, events)

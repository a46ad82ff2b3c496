"""Plain-text pictures every game shares: the lobby, a room's seats, the result, clocks.

Each game's own picture (its table or board) is drawn by its module in
:mod:`client_cli.games`. The plain mode prints them as they are; the TUI shows the same
text in its panels, so a screen reader and a terminal user read the same words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from client_cli.accounts import words
from server.wire.protocol import ROOMS_PAGE

if TYPE_CHECKING:
    from client_cli.state import RoomState

Json = dict[str, Any]


def clock_text(seconds: float) -> str:
    """``287.5`` -> ``"4:47"``."""
    seconds = max(0.0, seconds)
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


def lobby_lines(
    rooms: list[Json], flavour: Callable[[Json], str], offset: int = 0, total: int = 0
) -> list[str]:
    """One line per public room: id, game and its ``flavour`` (the preset or rules its
    game's module names), state, seats taken, players; then, when the server has more
    rooms than this page (from the ``offset``-th, of ``total``), how to see the others."""
    if not rooms:
        if offset:
            return [f"No rooms past {offset} (there are {total}): rooms 1 lists the first page"]
        return ["No public rooms. Create one with: create GAME (help lists the games)"]
    lines = []
    for room in rooms:
        seats = room.get("seats", [])
        taken = sum(1 for s in seats if s.get("player"))
        names = ", ".join(str(s.get("name")) for s in seats if s.get("player"))
        rated = " rated" if room.get("rated") else ""
        lines.append(
            f"{room['room']}  {room.get('game')} {flavour(room)}{rated}  {room.get('state')}  "
            f"{taken}/{len(seats)} seats  {names}"
        )
    if offset or total > len(rooms):
        page = offset // ROOMS_PAGE + 1
        more = f": rooms {page + 1} for the next page" if offset + len(rooms) < total else ""
        lines.append(f"Rooms {offset + 1}-{offset + len(rooms)} of {total}{more}")
    return lines


def seats_lines(room: RoomState) -> list[str]:
    """The room's seats before the start (who sits where, bots, the invite code)."""
    rated = words(room.lang)("rated" if room.frame.get("rated") else "casual")
    lines = [f"Room {room.room} · {room.game} · {room.state} · {rated}"]
    if room.invite:
        lines.append(f"Invite code: {room.invite}")
    for seat in room.frame.get("seats", []):
        if seat.get("player"):
            tags = [t for t in ("bot", "house", "autopilot") if seat.get(t)]
            if not seat.get("connected") and not seat.get("house"):
                tags.append("away")
            you = " (you)" if seat["seat"] == room.seat else ""
            extra = f" [{', '.join(tags)}]" if tags else ""
            lines.append(f"  seat {seat['seat']}: {seat.get('name')}{you}{extra}")
        else:
            lines.append(f"  seat {seat['seat']}: (free)")
    return lines


def outcome_line(room: RoomState) -> str:
    """Who won, in words."""
    outcome = room.frame.get("outcome") or {}
    if room.state == "aborted":
        return f"ABORTED: {room.frame.get('reason')}"
    winners = [room.names[w] if w < len(room.names) else str(w) for w in outcome.get("winners", [])]
    reason = str(outcome.get("reason", "")).replace("_", " ")
    if not winners:
        return f"RESULT: draw ({reason})" + _placing(room, outcome)
    return f"RESULT: {', '.join(winners)} won ({reason})" + _placing(room, outcome)


def _placing(room: RoomState, outcome: dict[str, Any]) -> str:
    """`` · you placed 2nd of 3`` for a seated player (empty for a spectator)."""
    ranks = outcome.get("ranks") or []
    if room.seat is None or not 0 <= room.seat < len(ranks):
        return ""
    place = int(ranks[room.seat])
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
    return f" · you placed {place}{suffix} of {len(ranks)}"

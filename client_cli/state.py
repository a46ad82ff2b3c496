"""The client's picture of the server: its player, the lobby and each followed room.

:class:`ClientState` is sans-I/O: :meth:`ClientState.apply` takes every server frame in
order and returns the sentences worth showing; the session, the plain mode and the TUI all
read the same state.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from client_cli.kriegspiel_model import KriegBoard
from client_cli.perudo_model import PerudoTable, apply_event

Json = dict[str, Any]


@dataclass
class RoomState:
    """One room this client follows (seated or watching)."""

    room: str
    game: str = ""
    frame: Json = field(default_factory=dict)
    seat: int | None = None
    seq: int = 0
    invite: str | None = None
    turn: Json | None = None
    clock: Json | None = None
    clock_at: float = 0.0
    history: dict[int, Json] = field(default_factory=dict)
    last_view: Json | None = None
    log: list[str] = field(default_factory=list)
    #: chat line numbers already shown (a reconnect hears the channel's recent lines again)
    chat_seen: set[int] = field(default_factory=set)
    perudo: PerudoTable = field(default_factory=PerudoTable)
    kriegspiel: KriegBoard = field(default_factory=KriegBoard)

    @property
    def state(self) -> str:
        """``waiting``, ``playing``, ``finished`` or ``aborted`` (``unknown`` before a frame)."""
        return str(self.frame.get("state", "unknown"))

    @property
    def over(self) -> bool:
        """Whether the game has ended (finished or aborted)."""
        return self.state in ("finished", "aborted")

    @property
    def names(self) -> list[str]:
        """Display names by seat (empty for a free seat; ``name#2`` when a name repeats)."""
        raw = [str(s.get("name") or "") for s in self.frame.get("seats", [])]
        return [
            f"{name}#{seat}" if name and raw.count(name) > 1 else name
            for seat, name in enumerate(raw)
        ]

    @property
    def legal(self) -> list[str]:
        """The actions the game accepts from this client now (empty when not its turn)."""
        return list(self.turn["legal"]) if self.turn else []

    def clock_remaining(self, now: float | None = None) -> list[float] | None:
        """Each seat's Kriegspiel clock now (the running one counted down), or None."""
        if not self.clock or self.clock.get("remaining") is None:
            return None
        remaining = [float(r) for r in self.clock["remaining"]]
        mover = self.clock.get("to_move")
        if mover is not None and not self.over:
            elapsed = (time.monotonic() if now is None else now) - self.clock_at
            remaining[mover] = max(0.0, remaining[mover] - elapsed)
        return remaining

    def _model_view(self, view: Json) -> None:
        self.last_view = view
        if self.game == "perudo":
            self.perudo.apply_view(view)
        elif self.game == "kriegspiel":
            self.kriegspiel.apply_view(view)

    def apply(self, frame: Json) -> list[str]:
        """Apply a frame addressed to this room; return sentences for the log."""
        kind = frame["type"]
        lines: list[str] = []
        if kind == "room":
            before = self.state
            self.frame = {k: v for k, v in frame.items() if k != "type"}
            self.game = str(frame.get("game", self.game))
            self.invite = frame.get("invite") or self.invite
            self.perudo.names = self.names
            if before != self.state and self.state in ("playing", "finished", "aborted"):
                lines.append(f"Room {self.room} is now {self.state}.")
            if self.over:
                self.turn = None
        elif kind == "snapshot":
            self.seat = frame.get("seat")
            self.perudo.seat = self.seat
            self.kriegspiel.seat = self.seat
            self.seq = max(self.seq, int(frame.get("seq", 0)))
            self._model_view(frame["view"])
        elif kind == "event":
            seq = int(frame["seq"])
            self.history[seq] = frame["event"]
            if seq > self.seq:
                self.seq = seq
                if self.turn is not None and seq > int(self.turn.get("seq", 0)):
                    self.turn = None
                line = self._apply_event(frame["event"])
                self.log.append(line)
                lines.append(line)
        elif kind == "turn":
            self.turn = frame
            self.seat = frame.get("seat", self.seat)
            self._model_view(frame["view"])
        elif kind == "clock":
            self.clock = frame
            self.clock_at = time.monotonic()
        elif kind == "chat":
            n = int(frame.get("n", 0))
            if n not in self.chat_seen:
                self.chat_seen.add(n)
                where = "spectators" if frame.get("channel") == "spectators" else "table"
                line = f"{frame.get('name', '?')} ({where}): {frame.get('text', '')}"
                self.log.append(line)
                lines.append(line)
        elif kind in ("created", "joined", "watching", "resumed"):
            if frame.get("seat") is not None:
                self.seat = frame["seat"]
                self.perudo.seat = self.seat
                self.kriegspiel.seat = self.seat
            if frame.get("invite"):
                self.invite = frame["invite"]
        return lines

    def _apply_event(self, event: Json) -> str:
        if self.game == "perudo":
            return apply_event(self.perudo, event)
        if self.game == "kriegspiel":
            return self.kriegspiel.apply_event(event)
        return f"({event.get('type')})"


@dataclass
class ClientState:
    """Everything the client knows: who it is, the lobby, the rooms it follows."""

    player: Json | None = None
    token: str | None = None
    rooms: dict[str, RoomState] = field(default_factory=dict)
    lobby: list[Json] = field(default_factory=list)
    current: str | None = None
    pending_seats: list[Json] = field(default_factory=list)
    last_error: Json | None = None
    last_hint: Json | None = None
    profile: Json | None = None
    #: rooms this client left: frames still in flight for them are dropped, not a new room
    left: set[str] = field(default_factory=set)

    def room(self, room_id: str) -> RoomState:
        """The state of ``room_id`` (created on first use)."""
        state = self.rooms.get(room_id)
        if state is None:
            state = self.rooms[room_id] = RoomState(room=room_id)
        return state

    @property
    def current_room(self) -> RoomState | None:
        """The room the player looks at now."""
        return self.rooms.get(self.current) if self.current else None

    def apply(self, frame: Json) -> list[str]:
        """Apply one server frame; return the sentences worth showing to the player."""
        kind = frame.get("type")
        if kind == "welcome":
            self.player = frame["player"]
            self.token = frame["token"]
            self.pending_seats = list(frame.get("seats", []))
            for seat in self.pending_seats:  # the game is known before the room frame comes
                room = self.room(str(seat["room"]))
                room.game = room.game or str(seat.get("game") or "")
            return [f"Connected as {self.player['name']} ({frame.get('server', '?')})."]
        if kind == "rooms":
            self.lobby = list(frame["rooms"])
            return []
        if kind == "error":
            self.last_error = frame
            return [f"Error {frame.get('code')}: {frame.get('message')}"]
        if kind == "hint":
            self.last_hint = frame
            return [describe_hint(frame)]
        if kind == "profile":
            self.profile = frame
            return []
        room_id = frame.get("room")
        if not isinstance(room_id, str):
            return []
        if kind in ("created", "joined", "watching"):
            self.left.discard(room_id)
        elif room_id in self.left:
            return []
        state = self.room(room_id)
        lines = state.apply(frame)
        if kind in ("created", "joined", "watching"):
            self.current = room_id
            if kind == "created" and frame.get("invite"):
                lines.append(f"Room {room_id} created; invite code: {frame['invite']}")
            elif kind == "created":
                lines.append(f"Room {room_id} created.")
            elif kind == "joined":
                lines.append(f"Joined room {room_id} in seat {frame.get('seat')}.")
            else:
                lines.append(f"Watching room {room_id}.")
        elif kind == "left":
            self.rooms.pop(room_id, None)
            self.left.add(room_id)
            if self.current == room_id:
                self.current = None
            lines.append(f"Left room {room_id}.")
        elif kind == "bot_added":
            lines.append(f"Bot {frame.get('bot')} took seat {frame.get('seat')}.")
        return lines


def describe_hint(frame: Json) -> str:
    """A hint frame as one paragraph: the action and the expert's explanation (already in
    the player's language; the names of the rules that fired are for programs, not shown)."""
    probability = frame.get("probability")
    chance = f" ({probability:.0%})" if isinstance(probability, (int, float)) else ""
    return f"Hint: {frame.get('action')}{chance}. {frame.get('explanation', '')}".strip()

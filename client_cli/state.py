"""The client's picture of the server: its player, the lobby and each followed room.

:class:`ClientState` is sans-I/O: :meth:`ClientState.apply` takes every server frame in
order and returns the sentences worth showing; the session, the plain mode and the TUI all
read the same state.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import msgspec

from client_cli import accounts, games, matchmaking
from client_cli.catalogue import Catalogue
from client_cli.games.base import EventLog, GameModel

Json = dict[str, Any]


#: What a paused room says (the server cannot save its game), and its end, by language.
PAUSED = {
    "en": "The server cannot save: paused. The game goes on by itself when it can save "
    "again; no clock runs meanwhile.",
    "it": "Il server non riesce a salvare: partita in pausa. Riprende da sola quando potrà "
    "salvare di nuovo; intanto nessun orologio scorre.",
}
RESUMED = {
    "en": "The server can save again: the game goes on.",
    "it": "Il server salva di nuovo: la partita riprende.",
}


@dataclass
class RoomState:
    """One room this client follows (seated or watching)."""

    #: what the player on turn (and a move typed) is told while the connection is down
    OFFLINE = "Connection lost: reconnecting to the server (your turn comes back with it)."

    room: str
    #: the player's language (the game's sentences are told in it)
    lang: str = "en"
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
    #: what this viewer knows of the game, kept by the game's client module
    model: GameModel = field(default_factory=EventLog)
    #: the rating changes were told (once, though the final room frame comes again)
    rated_told: bool = False
    #: the rematch sentence last told (told again only when it changes)
    rematch_told: tuple[str, ...] = ()
    #: the result and placing were told (plain mode tells them once, at the end)
    outcome_told: bool = False
    #: the connection is down: the turn (if any) comes back with the server's next welcome
    offline: bool = False
    #: the server cannot save the game: it is paused (no move, no clock) until it can
    paused: bool = False
    paused_at: float = 0.0

    def __post_init__(self) -> None:
        if self.game and isinstance(self.model, EventLog):
            name, self.game = self.game, ""
            self.set_game(name)

    def set_game(self, name: str) -> None:
        """Learn the room's game: its client module makes the model (once)."""
        if name == self.game or not name:
            return
        self.game = name
        module = games.game(name)
        self.model = module.new_model(module.words(self.lang))
        self.model.sit(self.seat)
        self.model.name_seats(self.names)

    def _sit(self, seat: int | None) -> None:
        self.seat = seat
        self.model.sit(seat)

    @property
    def paused_text(self) -> str:
        """What a paused room tells its player, in the player's language."""
        return PAUSED.get(self.lang, PAUSED["en"])

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
    def rating_lines(self) -> list[str]:
        """A rated game's rating changes, once stored (empty before, or when casual)."""
        if not self.frame.get("ratings"):
            return []
        return accounts.rating_change_lines(self.frame, self.seat, self.lang)

    @property
    def own_rating_lines(self) -> list[str]:
        """The rating change in short for a status panel (your own when seated)."""
        if not self.frame.get("ratings"):
            return []
        return accounts.own_rating_lines(self.frame, self.seat, self.lang)

    @property
    def legal(self) -> list[str]:
        """The actions the game accepts from this client now (empty when not its turn)."""
        return list(self.turn["legal"]) if self.turn else []

    def clock_remaining(self, now: float | None = None) -> list[float] | None:
        """Each seat's clock now (the running one counted down), or None."""
        if not self.clock or self.clock.get("remaining") is None:
            return None
        remaining = [float(r) for r in self.clock["remaining"]]
        mover = self.clock.get("to_move")
        if mover is not None and not self.over:
            at = time.monotonic() if now is None else now
            if self.paused:  # (no clock runs while the room is paused)
                at = min(at, self.paused_at)
            elapsed = at - self.clock_at
            remaining[mover] = max(0.0, remaining[mover] - elapsed)
        return remaining

    def _model_view(self, view: Json) -> None:
        self.last_view = view
        self.model.apply_view(view)

    def apply(self, frame: Json) -> list[str]:
        """Apply a frame addressed to this room; return sentences for the log."""
        kind = frame["type"]
        lines: list[str] = []
        if kind == "room":
            before = self.state
            self.frame = {k: v for k, v in frame.items() if k != "type"}
            self.set_game(str(frame.get("game") or self.game))
            self.invite = frame.get("invite") or self.invite
            self.model.name_seats(self.names)
            if before != self.state and self.state in ("playing", "finished", "aborted"):
                lines.append(f"Room {self.room} is now {self.state}.")
            if frame.get("ratings") and not self.rated_told:
                self.rated_told = True  # (a room frame comes again on every resume)
                lines += accounts.rating_change_lines(self.frame, self.seat, self.lang)
            rematch = tuple(matchmaking.rematch_lines(self.frame, self.seat, self.lang))
            if rematch != self.rematch_told:
                self.rematch_told = rematch
                lines += rematch
            if self.over:
                self.turn = None
        elif kind == "snapshot":
            self._sit(frame.get("seat"))
            self.seq = max(self.seq, int(frame.get("seq", 0)))
            self._model_view(frame["view"])
        elif kind == "event":
            seq = int(frame["seq"])
            self.history[seq] = frame["event"]
            if seq > self.seq:
                self.seq = seq
                if self.turn is not None and seq > int(self.turn.get("seq", 0)):
                    self.turn = None
                line = self.model.apply_event(frame["event"])
                self.log.append(line)
                lines.append(line)
        elif kind == "turn":
            self.turn = frame
            self._sit(frame.get("seat", self.seat))
            self._model_view(frame["view"])
        elif kind == "clock":
            self.clock = frame
            self.clock_at = time.monotonic()
        elif kind == "paused":
            paused = bool(frame.get("paused"))
            if paused != self.paused:
                self.paused = paused
                self.paused_at = time.monotonic()
                line = self.paused_text if paused else RESUMED.get(self.lang, RESUMED["en"])
                self.log.append(line)
                lines.append(line)
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
                self._sit(frame["seat"])
            if frame.get("invite"):
                self.invite = frame["invite"]
        return lines


@dataclass
class ClientState:
    """Everything the client knows: who it is, the lobby, the rooms it follows."""

    #: the player's language: the catalogue, the games' words and hints come in it
    lang: str = "en"
    player: Json | None = None
    #: the server's games, options and bots (asked for after ``welcome``)
    catalogue: Catalogue | None = None
    token: str | None = None
    rooms: dict[str, RoomState] = field(default_factory=dict)
    lobby: list[Json] = field(default_factory=list)
    #: where the last ``rooms`` page starts, and how many public rooms there are in all
    lobby_offset: int = 0
    lobby_total: int = 0
    current: str | None = None
    pending_seats: list[Json] = field(default_factory=list)
    last_error: Json | None = None
    last_hint: Json | None = None
    profile: Json | None = None
    #: the last ``leaderboard`` frame
    leaderboard: Json | None = None
    #: rooms this client left: frames still in flight for them are dropped, not a new room
    left: set[str] = field(default_factory=set)
    #: the open seeks, as last listed or pushed (``seeks`` frames)
    seeks: list[Json] = field(default_factory=list)
    #: the ids of this client's own open seeks, oldest first
    my_seeks: list[str] = field(default_factory=list)
    #: the last ``match`` frame (the room the server opened for this player)
    last_match: Json | None = None
    #: how many ``match`` frames came (``wait match`` waits for the next one)
    match_count: int = 0
    #: the hosted tournaments, as last listed
    tournaments: list[Json] = field(default_factory=list)
    #: the last ``tournament`` frame of each tournament (asked for, or pushed live)
    tournament: dict[str, Json] = field(default_factory=dict)
    #: whether the server welcomed this client on a live connection (shown on screen)
    connected: bool = False

    def disconnected(self) -> None:
        """The connection dropped: no turn is ours until the server resumes the rooms."""
        self.connected = False
        for room in self.rooms.values():
            room.turn = None  # the server sends it again after resume
            room.offline = True

    def room(self, room_id: str) -> RoomState:
        """The state of ``room_id`` (created on first use)."""
        state = self.rooms.get(room_id)
        if state is None:
            state = self.rooms[room_id] = RoomState(room=room_id, lang=self.lang)
        return state

    @property
    def current_room(self) -> RoomState | None:
        """The room the player looks at now."""
        return self.rooms.get(self.current) if self.current else None

    def forget_rooms(self) -> None:
        """Stop following every room (a logout, or a login as another player)."""
        self.left.update(self.rooms)
        self.rooms.clear()
        self.current = None
        self.pending_seats = []

    def apply(self, frame: Json) -> list[str]:
        """Apply one server frame; return the sentences worth showing to the player."""
        kind = frame.get("type")
        if kind == "welcome":
            if self.player is not None and self.player.get("id") != frame["player"].get("id"):
                self.forget_rooms()  # logged in as another player: the server left its rooms
            self.player = frame["player"]
            self.token = frame["token"]
            self.connected = True
            for room in self.rooms.values():
                room.offline = False
            self.pending_seats = list(frame.get("seats", []))
            for seat in self.pending_seats:  # the game is known before the room frame comes
                self.room(str(seat["room"])).set_game(str(seat.get("game") or ""))
            return [f"Connected as {self.player['name']} ({frame.get('server', '?')})."]
        if kind == "rooms":
            self.lobby = list(frame["rooms"])
            self.lobby_offset = int(frame.get("offset") or 0)
            self.lobby_total = int(frame.get("total") or len(self.lobby))
            return []
        if kind == "catalogue":
            try:
                self.catalogue = Catalogue.from_frame(frame)
            except msgspec.ValidationError as exc:
                return [f"The server's catalogue of games is unreadable: {exc}"]
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
        if kind == "leaderboard":
            self.leaderboard = frame
            return []
        if kind == "account":
            self.player = frame.get("player") or self.player
            return []
        if kind == "logged_out":
            self.forget_rooms()
            self.lobby = []
            return []
        if kind in MATCHMAKING:
            return self._matchmaking(frame)
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

    def _matchmaking(self, frame: Json) -> list[str]:
        """Seeks, matches and tournaments: kept, and told where worth it."""
        kind = frame.get("type")
        if kind == "seeks":
            self.seeks = [s for s in frame.get("seeks") or [] if isinstance(s, dict)]
            me = (self.player or {}).get("id")
            own = [
                matchmaking.seek_id(s)
                for s in self.seeks
                if isinstance(s.get("player"), dict) and s["player"].get("id") == me
            ]
            if frame.get("game") is None:  # every open seek: yours are exactly these
                self.my_seeks = own
            else:
                self.my_seeks += [ident for ident in own if ident not in self.my_seeks]
            return []
        if kind == "seek_added":
            given = frame.get("seek")
            seek: Json = given if isinstance(given, dict) else frame
            ident = matchmaking.seek_id(seek)
            if seek.get("status", "open") != "open":  # paired at once: the match follows
                self._drop_seek(ident, told=False)
                return []
            if ident not in self.my_seeks:
                self.my_seeks.append(ident)
            if all(matchmaking.seek_id(s) != ident for s in self.seeks):
                self.seeks.append(seek)
            return [matchmaking.seek_added_line(seek, self.lang)]
        if kind == "seek_cancelled":
            gone = frame.get("seek")
            ident = matchmaking.seek_id(gone) if isinstance(gone, dict) else str(gone)
            return self._drop_seek(ident, told=True)
        if kind == "match":
            return self._matched(frame)
        if kind == "tournaments":
            self.tournaments = [t for t in frame.get("tournaments") or [] if isinstance(t, dict)]
            return []
        # a tournament frame: the whole tournament (asked for, or pushed to entrants)
        tournament = matchmaking.tournament_of(frame)
        self.tournament[matchmaking.tournament_id(tournament)] = tournament
        return []

    def _drop_seek(self, ident: str, *, told: bool) -> list[str]:
        self.seeks = [s for s in self.seeks if matchmaking.seek_id(s) != ident]
        if ident in self.my_seeks:
            self.my_seeks.remove(ident)
            return [matchmaking.words(self.lang)("seek_cancelled", id=ident)] if told else []
        return []

    def _matched(self, frame: Json) -> list[str]:
        """A ``match`` frame: the server seated this player in a new room; it becomes the
        current room (the session resumes it, the TUI opens it)."""
        self.last_match = frame
        self.match_count += 1
        room_id = str(frame.get("room"))
        if frame.get("source") == "seek":  # ``ref`` names the seek that was paired
            seek = frame.get("ref") or frame.get("seek")
            if isinstance(seek, str):
                self._drop_seek(seek, told=False)
        self.left.discard(room_id)
        room = self.room(room_id)
        room.set_game(str(frame.get("game") or ""))
        if isinstance(frame.get("seat"), int):
            room._sit(frame["seat"])
        self.current = room_id
        return [matchmaking.match_line(frame, self.lang)]


#: The frames :meth:`ClientState._matchmaking` reads.
MATCHMAKING = frozenset(
    {"seeks", "seek_added", "seek_cancelled", "match", "tournaments", "tournament"}
)


def describe_hint(frame: Json) -> str:
    """A hint frame as one paragraph: the action and the expert's explanation (already in
    the player's language; the names of the rules that fired are for programs, not shown)."""
    probability = frame.get("probability")
    chance = f" ({probability:.0%})" if isinstance(probability, (int, float)) else ""
    return f"Hint: {frame.get('action')}{chance}. {frame.get('explanation', '')}".strip()

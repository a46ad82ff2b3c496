"""A room's own settings and the server-wide time limits rooms apply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WAITING, PLAYING, FINISHED, ABORTED = "waiting", "playing", "finished", "aborted"


@dataclass(frozen=True, slots=True)
class Settings:
    """A room's own settings (the engine's options are separate)."""

    public: bool = True
    spectators: str = "live"  # live | after | none
    turn_time: float = 0.0  # seconds per turn, 0 = unlimited (games with a stand-in only)
    clock_base: float = 0.0  # seconds per player, 0 = no clock
    clock_increment: float = 0.0
    autostart: bool = True
    chat: bool = True
    #: whether the game is rated: None (rated when every seat is held by an account, a bot
    #: account or a house bot, casual otherwise), True (rated: guests may not sit), False
    #: (casual); server.ratings.plan.decide makes the decision when the game starts
    rated: bool | None = None
    #: a *match* (server.rooms.lobby.Lobby.open_match): the room was opened with its seats
    #: already given, by ``match`` (its source: ``seek``, ``rematch``, ``tournament``,
    #: ``ladder``); ``None`` for a room a player made. ``match_ref`` names what made it
    #: (a seek's id, a tournament's id...). A match starts when every seat's player is
    #: there, or at the ``no_show`` deadline (seconds after it opened), when a seat whose
    #: player never came forfeits for ``no_show``.
    match: str | None = None
    match_ref: str | None = None
    no_show: float = 0.0

    @property
    def reserved(self) -> bool:
        """Whether the seats are reserved for named players (a match)."""
        return self.match is not None

    def to_json(self) -> dict[str, Any]:
        """The settings as stored in the ``games`` row."""
        return {
            "public": self.public,
            "spectators": self.spectators,
            "turn_time": self.turn_time,
            "clock_base": self.clock_base,
            "clock_increment": self.clock_increment,
            "autostart": self.autostart,
            "chat": self.chat,
            "rated": self.rated,
            **(
                {"match": self.match, "match_ref": self.match_ref, "no_show": self.no_show}
                if self.match is not None
                else {}
            ),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        """Settings from a stored row (rows written before a setting existed get its default)."""
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        return cls(**known)


@dataclass(frozen=True, slots=True)
class Timing:
    """Server-wide time limits a room applies."""

    grace: float = 60.0  # seconds a disconnected player keeps their seat untouched
    autopilot_delay: float = 1.0  # a house seat's pace: seconds from its turn to its move
    finished_ttl: float = 600.0  # seconds a finished room stays in memory (the log keeps it)
    #: seconds a match's players have to come to its room (server.rooms.lobby.open_match)
    no_show: float = 60.0
    #: seconds a waiting room (not a match) lasts with no human seated and connected:
    #: then it is aborted as ``empty`` (``--empty-room-ttl``; throwaway rooms go soon)
    empty_room: float = 60.0

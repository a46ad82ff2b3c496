"""The server's catalogue of games, read into value types (no I/O).

The client asks for it after ``welcome`` (``{"type": "catalogue", "lang": ...}``) and takes
from it every game the lobby offers, each game's options with their types, defaults,
limits and help, its presets and house bots, and the options every room has. Nothing in
the client lists games itself; :meth:`Option.read` checks a typed value before it is sent.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

Json = dict[str, Any]

TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")


class Option(msgspec.Struct, frozen=True):
    """One option a room or a game takes: its type (``bool``, ``int``, ``float``, ``str``
    or ``object``), default (None: left out), allowed values, help, and an object's
    members (``fields``)."""

    name: str
    type: str = "str"
    default: Any = None
    choices: list[Any] | None = None
    min: float | None = None
    max: float | None = None
    help: str = ""
    fields: list[Option] | None = None

    def read(self, text: str) -> Any:
        """The value typed as ``text``, converted to the option's type and checked;
        ``ValueError`` says what is wrong with it. An object is typed as JSON, or as its
        members' values joined by ``+`` in their order (``clock=300+5``)."""
        if self.type == "object":
            return self._read_object(text.strip())
        value = self._convert(text.strip())
        if self.choices and value not in self.choices:
            shown = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"{self.name} is one of {shown}, not {text!r}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if self.min is not None and value < self.min:
                raise ValueError(f"{self.name} is at least {_number(self.min)}, not {text}")
            if self.max is not None and value > self.max:
                raise ValueError(f"{self.name} is at most {_number(self.max)}, not {text}")
        return value

    def _read_object(self, text: str) -> Json:
        members = self.fields or []
        if text.startswith("{"):
            try:
                value = json.loads(text)
            except ValueError:
                raise ValueError(f"{self.name} is not valid JSON: {text!r}") from None
            if not isinstance(value, dict):
                raise ValueError(f"{self.name} is an object, not {text!r}")
            return value
        parts = text.split("+")
        if not members or len(parts) > len(members):
            shape = "+".join(member.name.upper() for member in members) or "a JSON object"
            raise ValueError(f"{self.name} is {shape}, not {text!r}")
        given = members[: len(parts)]  # the later members keep their defaults
        return {member.name: member.read(part) for member, part in zip(given, parts, strict=True)}

    def _convert(self, text: str) -> Any:
        kind = self.type.lower()
        if kind in ("bool", "boolean"):
            if text.lower() in TRUE:
                return True
            if text.lower() in FALSE:
                return False
            raise ValueError(f"{self.name} is true or false, not {text!r}")
        if kind in ("int", "integer"):
            try:
                return int(text)
            except ValueError:
                raise ValueError(f"{self.name} is a whole number, not {text!r}") from None
        if kind in ("float", "number"):
            try:
                return float(text)
            except ValueError:
                raise ValueError(f"{self.name} is a number, not {text!r}") from None
        return text

    def describe(self) -> str:
        """``name=value`` with what the value may be (``seats=2..6``, ``rules=a|b``)."""
        if self.choices:
            shape = "|".join(str(c) for c in self.choices)
        elif self.min is not None or self.max is not None:
            low = "" if self.min is None else _number(self.min)
            high = "" if self.max is None else _number(self.max)
            shape = f"{low}..{high}"
        elif self.type.lower() in ("bool", "boolean"):
            shape = "true|false"
        elif self.fields:
            shape = "+".join(member.name.upper() for member in self.fields)
        else:
            shape = self.type
        return f"{self.name}={shape}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


class Preset(msgspec.Struct, frozen=True):
    """A named set of a game's option values (``classic``)."""

    name: str
    values: Json = msgspec.field(default_factory=dict)
    help: str = ""


class HouseBot(msgspec.Struct, frozen=True):
    """A bot the server can seat in a room of the game, and the levels it plays at."""

    name: str
    levels: list[str] = msgspec.field(default_factory=list)


class SeatRange(msgspec.Struct, frozen=True):
    """How many players a game takes."""

    min: int
    max: int


class GameInfo(msgspec.Struct, frozen=True):
    """One game the server offers."""

    name: str
    title: str = ""
    seats: SeatRange = SeatRange(2, 2)
    options: list[Option] = msgspec.field(default_factory=list)
    presets: list[Preset] = msgspec.field(default_factory=list)
    bots: list[HouseBot] = msgspec.field(default_factory=list)
    standin_bot: str | None = None
    hints: bool = False
    record_format: str | None = None
    #: which of the catalogue's room options rooms of this game take
    room_options: list[str] | None = None

    def option(self, name: str) -> Option | None:
        """The option called ``name``, if the game has it."""
        return next((o for o in self.options if o.name == name), None)

    def preset(self, name: str) -> Preset | None:
        """The preset called ``name``, if the game has it."""
        return next((p for p in self.presets if p.name == name), None)

    @property
    def label(self) -> str:
        """The title to show (the name when the server gave none)."""
        return self.title or self.name

    def bot_names(self) -> list[str]:
        """The names a host may type to add a bot: each bot, then each ``bot:level``."""
        names = [bot.name for bot in self.bots]
        names += [f"{bot.name}:{level}" for bot in self.bots for level in bot.levels]
        return names

    def check_seats(self, seats: int) -> None:
        """``ValueError`` unless the game takes ``seats`` players."""
        low, high = self.seats.min, self.seats.max
        if not low <= seats <= high:
            many = str(low) if low == high else f"{low} to {high}"
            raise ValueError(f"{self.label} is for {many} players, not seats={seats}")


class Catalogue(msgspec.Struct, frozen=True):
    """Every game the server offers and the options every room takes, in one language."""

    lang: str = "en"
    games: list[GameInfo] = msgspec.field(default_factory=list)
    room_options: list[Option] = msgspec.field(default_factory=list)

    @classmethod
    def from_frame(cls, frame: Json) -> Catalogue:
        """Read a ``catalogue`` frame (``msgspec.ValidationError`` if it is malformed)."""
        body = {k: v for k, v in frame.items() if k not in ("type", "ref")}
        return msgspec.convert(body, cls)

    @property
    def names(self) -> list[str]:
        """The games' names, in the server's order."""
        return [game.name for game in self.games]

    def game(self, name: str) -> GameInfo | None:
        """The game called ``name``, if the server offers it."""
        return next((g for g in self.games if g.name == name), None)

    def room_option(self, name: str, game: GameInfo | None = None) -> Option | None:
        """The room option called ``name``, if there is one (and ``game`` takes it)."""
        if game is not None and game.room_options is not None and name not in game.room_options:
            return None
        return next((o for o in self.room_options if o.name == name), None)

    def room_options_of(self, game: GameInfo) -> list[Option]:
        """The room options a room of ``game`` takes."""
        return [o for o in self.room_options if self.room_option(o.name, game) is not None]

"""``umpire rules``: the games, their rule sets, presets and options, and the room options,
as plain text for a terminal (no documentation markup).

Each engine's config type describes its own options (``OPTION_HELP``, one entry per
option, and ``PRESETS`` where it has presets); a config without them is described by its
docstring. The room options (those of ``create_room`` besides the game's) come from
:class:`server.wire.protocol.CreateRoom` with :data:`ROOM_OPTION_HELP`.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
from collections.abc import Iterable
from typing import Any

import msgspec

from server.games import engine, engine_names
from server.wire.protocol import CreateRoom, Inbound

#: The room options of ``create_room`` (every game), in plain text.
ROOM_OPTION_HELP = {
    "public": "true: the room is listed in the lobby; false: joined by its invite code",
    "spectators": "live (anyone may watch the game in progress), after (only once it is "
    "over) or none",
    "turn_time": "seconds a player has for each move, 0 for no limit; when it runs out the "
    "house stand-in plays for the absent player (games with a stand-in only, e.g. Perudo)",
    "clock": 'a chess clock for Kriegspiel: {"base": seconds per player, "increment": '
    "seconds added per move}; a player whose time runs out loses (a draw if the opponent "
    "cannot mate)",
    "autostart": "true: the game starts as soon as every seat is taken",
    "sit": "true: the room's creator takes seat 0",
    "chat": "true: the room has a chat",
}

_WIDTH = 88
_MARKUP = re.compile(r":[a-z]+:`~?([^`]+)`|``([^`]+)``|`([^`]+)`")


def plain(text: str) -> str:
    """``text`` without reStructuredText or Markdown markup: ":meth:`from_options`" and
    "``x``" become "from_options" and "x"."""
    return _MARKUP.sub(lambda m: next(g for g in m.groups() if g is not None), text)


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _entry(name: str, default: Any, help_text: str) -> list[str]:
    head = f"  {name} (default {_value(default)})"
    out = [head]
    for paragraph in plain(help_text).split("\n"):
        out += textwrap.wrap(paragraph, _WIDTH, initial_indent="      ", subsequent_indent="      ")
    return out


def _defaults(config_type: type) -> Iterable[tuple[str, Any]]:
    if dataclasses.is_dataclass(config_type):
        for field in dataclasses.fields(config_type):
            yield field.name, field.default
        return
    yield from config_type.from_options({}).to_options().items()  # type: ignore[attr-defined]


def describe_game(name: str) -> str:
    """One game's options and presets, in plain text."""
    config_type = engine(name).config_type
    lines = [f"{name}: game options (create_room's options)"]
    helps: dict[str, str] = getattr(config_type, "OPTION_HELP", {})
    if not helps:
        doc = textwrap.dedent(plain(config_type.__doc__ or "")).strip()
        lines += ["  " + line if line else "" for line in doc.splitlines()]
    for option, default in _defaults(config_type):
        lines += _entry(option, default, helps.get(option, ""))
    presets: dict[str, dict[str, Any]] = getattr(config_type, "PRESETS", {})
    if presets:
        lines.append(f"{name}: presets")
        for preset, values in presets.items():
            shown = ", ".join(f"{key} {_value(value)}" for key, value in values.items())
            lines += textwrap.wrap(
                f"{preset}: {shown}", _WIDTH, initial_indent="  ", subsequent_indent="      "
            )
    return "\n".join(line.rstrip() for line in lines)


def describe_room() -> str:
    """The room options of every game, in plain text."""
    lines = ["room options (every game; create_room's own fields)"]
    fields = CreateRoom.__struct_fields__
    given = CreateRoom.__struct_defaults__
    defaults = dict(zip(fields[len(fields) - len(given) :], given, strict=True))
    for field in fields:
        if field in ("game", "options", *Inbound.__struct_fields__):
            continue
        default = msgspec.to_builtins(defaults.get(field))
        lines += _entry(field, default, ROOM_OPTION_HELP[field])
    return "\n".join(lines)


def describe(game: str | None = None) -> str:
    """Everything ``umpire rules`` prints: one game's options (or every game's), then the
    room options. Raise ``ConfigError`` for an unknown game (its message names the games)."""
    names = [game] if game else list(engine_names())
    return "\n\n".join([*(describe_game(name) for name in names), describe_room()])

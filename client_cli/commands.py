"""The command language shared by ``--plain`` and the TUI's command line.

:func:`parse` turns one line into a :class:`Command`: either a protocol message to send
(``message``), a local action (``local``: help, wait, replay, quit, or a command of the
room's game such as its notes), or an error to show. Which words are game actions, and how
they are spelled, is the room's game module's to say (:mod:`client_cli.games`); actions are
checked against the last ``turn.legal`` before sending (:func:`check_action`), so an
illegal one never leaves the client. ``create`` takes its games and options from the
server's catalogue and checks every value before sending.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from client_cli import accounts, games, matchmaking
from client_cli.catalogue import Catalogue, GameInfo
from client_cli.state import ClientState
from server.wire.protocol import ROOMS_PAGE

Json = dict[str, Any]

LOCAL = {"help", "quit", "exit", "wait", "legal", "show", "replay", "room", "lobby"}

#: Commands that need a password: the frontend asks it (without echo), never the line.
SECRET = {"register", "login", "password"}

#: A player id as the server makes them (``profile ID`` asks by id, anything else by name).
PLAYER_ID = re.compile(r"p[0-9a-f]{12}")

#: ``create`` words that are not ``key=value``: they set a room setting.
FLAGS: dict[str, tuple[str, bool]] = {
    "private": ("public", False),
    "public": ("public", True),
    "noautostart": ("autostart", False),
}


@dataclass
class Command:
    """A parsed line: a message to send, a local action, or an error."""

    message: Json | None = None
    local: str | None = None
    args: list[str] = field(default_factory=list)
    error: str | None = None


def create_message(game_name: str, words: list[str], catalogue: Catalogue | None) -> Json:
    """Build a ``create_room`` message from ``key=value`` words, each value checked against
    the catalogue: the game's options (``preset=NAME`` as the game takes it), the room
    options its rooms take (``clock=300+5``, ``turn_time=30``...), ``seats`` within the
    game's range, and the flags ``private``, ``public``, ``noautostart``."""
    if catalogue is None:
        raise ValueError("the server's list of games has not come yet")
    game = catalogue.game(game_name)
    if game is None:
        raise ValueError(f"the games are {', '.join(catalogue.names)}, not {game_name!r}")
    aliases = games.game(game.name).OPTION_ALIASES
    message: Json = {"type": "create_room", "game": game.name}
    preset: Json = {}
    options: Json = {}
    for word in words:
        key, sep, raw = word.partition("=")
        if not sep:
            if word not in FLAGS:
                raise ValueError(f"expected key=value or private/noautostart, not {word!r}")
            flag, value = FLAGS[word]
            message[flag] = value
            continue
        key = aliases.get(key, key)
        option = game.option(key)
        if option is not None:
            options[key] = option.read(raw)
        elif key == "preset" and (named := game.preset(raw)) is not None:
            preset = dict(named.values)
        elif key == "seats":  # a game of a fixed number of players takes no seats option
            seats = _whole(raw)
            game.check_seats(seats)
            if game.seats.min != game.seats.max:
                options["seats"] = seats
        elif (room_option := catalogue.room_option(key, game)) is not None:
            message[key] = room_option.read(raw)
        else:
            raise ValueError(_unknown_option(game, key, catalogue))
    if "seats" in options:
        game.check_seats(int(options["seats"]))
    message["options"] = {**preset, **options}
    return message


def _whole(raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"seats is a whole number, not {raw!r}") from None


def _unknown_option(game: GameInfo, key: str, catalogue: Catalogue) -> str:
    known = [o.name for o in game.options] + [o.name for o in catalogue.room_options_of(game)]
    return f"{game.label} has no option {key!r}: the options are {', '.join(known)}"


def _seat(args: list[str], index: int) -> Json:
    if len(args) > index:
        return {"seat": seat_number(args[index])}
    return {}


def seat_number(raw: str) -> int:
    """A seat typed as a whole number, or a ValueError that names ``raw``."""
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"a seat is a whole number, not {raw!r}") from None


def parse(line: str, state: ClientState) -> Command:
    """Read one command line; the current room fills in ``room`` where needed."""
    words = line.strip().split()
    if not words:
        return Command(local="noop")
    head, args = words[0].lower(), words[1:]
    try:
        if head in LOCAL:
            return Command(local=head, args=args)
        if head in SECRET or head in ("logout", "leaderboard", "profile"):
            return account_command(head, args, state)
        if head in matchmaking.COMMANDS:
            return Command(message=matchmaking.parse(head, args, state))
        lobby = _lobby_command(head, args, state)
        if lobby is not None:
            return lobby
        return _room_command(line, head, args, state)
    except ValueError as exc:
        return Command(error=str(exc))


def _lobby_command(head: str, args: list[str], state: ClientState) -> Command | None:
    """A command that needs no room (None when ``head`` is not one)."""
    if head in ("rooms", "list"):
        msg: Json = {"type": "list_rooms"}
        for arg in args[:2]:  # rooms [GAME] [PAGE]: the server lists a page at a time
            if arg.isdigit():
                msg["offset"] = (max(1, int(arg)) - 1) * ROOMS_PAGE
            else:
                msg["game"] = arg
        return Command(message=msg)
    if head == "create":
        if not args:
            offered = "|".join(state.catalogue.names) if state.catalogue else "GAME"
            return Command(error=f"create {offered} [key=value ...]")
        return Command(message=create_message(args[0].lower(), args[1:], state.catalogue))
    if head == "join":
        if not args:
            return Command(error="join ROOM [SEAT]")
        return Command(message={"type": "join", "room": args[0], **_seat(args, 1)})
    if head in ("invite", "code"):
        if not args:
            return Command(error="invite CODE [SEAT]")
        return Command(message={"type": "join", "invite": args[0], **_seat(args, 1)})
    if head == "watch":
        if not args:
            return Command(error="watch ROOM")
        return Command(message={"type": "watch", "room": args[0]})
    if head == "ping":
        return Command(message={"type": "ping"})
    return None


def _room_command(line: str, head: str, args: list[str], state: ClientState) -> Command:
    """A command about the current room: settings, chat, bots, hints, the game's own."""
    current = state.current
    room = state.current_room
    if current is None or room is None:
        return Command(error=f"{head}: join, watch or create a room first")
    if head in ("start", "leave"):
        return Command(message={"type": head, "room": current})
    if head in ("say", "chat"):
        text = line.strip().split(None, 1)[1] if args else ""
        if not text:
            return Command(error="say TEXT")
        return Command(message={"type": "say", "room": current, "text": text})
    if head == "bot":
        msg: Json = {"type": "add_bot", "room": current}
        rest = list(args)
        if rest and not rest[0].lstrip("-").isdigit():
            msg["bot"] = rest.pop(0)
        if len(rest) > 1:
            return Command(error="bot [NAME] [SEAT]")
        if rest:
            msg["seat"] = seat_number(rest[0])
        return Command(message=msg)
    if head == "hint":
        return Command(message=hint_message(current, args, state.lang))
    module = games.game(room.game)
    if head in module.LOCAL:
        return Command(local=head, args=args)
    if head == "act" and args:
        return action_command(" ".join(args), state)
    if head == "bid" and args:
        return action_command(args[0], state)
    if not module.is_action(head, room):
        return Command(error=f"unknown command {head!r} (type help for the list)")
    return action_command(" ".join([head, *args]), state)


def account_command(head: str, args: list[str], state: ClientState) -> Command:
    """register, login, password (local: the frontend asks the password next), logout,
    profile and leaderboard (messages)."""
    say = accounts.words(state.lang)
    name = " ".join(args)  # a name may hold spaces: the rest of the line is the name
    if head == "register":
        kind = (state.player or {}).get("kind", "guest")
        if kind != "guest":
            return Command(error=say("already_account", name=(state.player or {}).get("name")))
        return Command(local=head, args=[name] if name else [])
    if head == "login":
        if not name:
            return Command(error=say("usage_login"))
        return Command(local=head, args=[name])
    if head == "password":
        if args:
            return Command(error=say("no_password_here", usage=say("usage_password")))
        if (state.player or {}).get("kind", "guest") == "guest":
            return Command(error=say("not_account"))
        return Command(local=head)
    if head == "logout":
        if args and args != ["everywhere"]:
            return Command(error=say("usage_logout"))
        return Command(message={"type": "logout", "everywhere": bool(args)})
    if head == "profile":
        if not name:
            return Command(message={"type": "profile"})
        key = "player" if PLAYER_ID.fullmatch(name) else "name"
        return Command(message={"type": "profile", key: name})
    return leaderboard_command(args, state)


def leaderboard_command(args: list[str], state: ClientState) -> Command:
    """``leaderboard GAME [RULES] [bots|humans]``: the game checked against the catalogue."""
    say = accounts.words(state.lang)
    words = list(args)
    pool = "human"
    if words and words[-1].lower() in ("bots", "bot", "humans", "human"):
        pool = "bot" if words.pop().lower().startswith("bot") else "human"
    if not words or len(words) > 2:
        return Command(error=say("usage_leaderboard"))
    game = words[0].lower()
    catalogue = state.catalogue
    if catalogue is not None and catalogue.game(game) is None:
        return Command(error=f"the games are {', '.join(catalogue.names)}, not {game!r}")
    message: Json = {"type": "leaderboard", "game": game, "pool": pool}
    if len(words) > 1:
        message["rules"] = words[1]
    return Command(message=message)


def hint_message(room: str, args: list[str], lang: str) -> Json:
    """A ``hint`` request: ``bluff=`` and ``reliability=`` (0..1), ``lang=``, ``level=``."""
    msg: Json = {"type": "hint", "room": room}
    if lang != "en":
        msg["lang"] = lang
    for word in args:
        key, _, raw = word.partition("=")
        if key in ("bluff", "reliability"):
            msg[key] = _fraction(key, raw)
        elif key in ("lang", "level"):
            msg[key] = raw
        else:
            raise ValueError("hint [bluff=0..1] [reliability=0..1] [lang=en|it] [level=...]")
    return msg


def _fraction(key: str, raw: str) -> float:
    """A number from 0 to 1 for ``key``, or a ValueError that names ``raw``."""
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:  # also refuses nan
        raise ValueError(f"{key} is a number from 0 to 1, not {raw!r}")
    return value


def check_action(action: str, state: ClientState) -> str | None:
    """Why ``action`` cannot be sent now (None when it is in ``turn.legal``)."""
    room = state.current_room
    if room is None:
        return "you are not in a room"
    if room.over:
        return "the game is over"
    if room.state != "playing":
        return "the game has not started"
    if room.seat is None:
        return "spectators cannot play"
    if room.offline:
        return room.OFFLINE
    if room.paused:
        return room.paused_text
    module = games.game(room.game)
    if action in module.ANYTIME:
        return None
    if room.turn is None:
        return "it is not your turn"
    if action in room.legal:
        return None
    return module.refusal(action, room)


def action_command(text: str, state: ClientState) -> Command:
    """An ``act`` message for ``text``, or the reason it would be refused."""
    room = state.current_room
    action = games.game(room.game if room else "").spell(text)
    problem = check_action(action, state)
    if problem is not None:
        return Command(error=problem)
    assert room is not None
    return Command(message={"type": "act", "room": room.room, "action": action})

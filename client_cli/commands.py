"""The command language shared by ``--plain`` and the TUI's command line.

:func:`parse` turns one line into a :class:`Command`: either a protocol message to send
(``message``), a local action (``local``: help, markers, wait, replay, quit...), or an
error to show. Game actions are checked against the last ``turn.legal`` before sending
(:func:`check_action`), so an illegal bid never leaves the client.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from client_cli.perudo_model import try_bid
from client_cli.state import ClientState

Json = dict[str, Any]

HOUSE_BOTS = (
    "autopilot",
    "perudo-random",
    "perudo-simple",
    "perudo-expert",
    "perudo-search",
    "kriegspiel-random",
    "kriegspiel-meta",
)

KRIEG_WORDS = {
    "any": "any",
    "any?": "any",
    "resign": "resign",
    "draw": "offer_draw",
    "offer": "offer_draw",
    "offer_draw": "offer_draw",
    "accept": "accept_draw",
    "accept_draw": "accept_draw",
    "decline": "decline_draw",
    "decline_draw": "decline_draw",
}

UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")

LOCAL = {"help", "quit", "exit", "wait", "mark", "unmark", "markers", "legal", "show", "replay"}
LOCAL |= {"room", "lobby"}

COMMANDS_HELP = """\
Lobby
  rooms [GAME]                     list the public rooms
  create GAME [key=value ...]      make a room: seats=3 preset=classic calza=true
                                   rules=english clock=300+5 turn_time=30 private
                                   spectators=after noautostart
  join ROOM [SEAT]                 take a seat in a public room
  invite CODE [SEAT]               take a seat in a private room by its invite code
  watch ROOM                       watch as a spectator
  bot [NAME] [SEAT]                add a house bot (autopilot, perudo-random,
                                   perudo-simple, perudo-expert, kriegspiel-random,
                                   kriegspiel-meta)
  start                            start now (host)
  leave                            leave the current room
  say TEXT                         chat (players and spectators have their own channels)
  room ROOM                        look at another room you follow
  profile                          your statistics
Perudo
  5x4 | bid 5x4                    bid five 4s (aces are face 1)
  dudo | calza                     challenge the last bid
  hint [bluff=0.3] [reliability=0.6] [lang=it]   ask the expert for a suggestion
Kriegspiel
  e2e4 | e7e8q                     try a move (UCI; castling is e1g1)
  any                              "Are there any?" (english rules)
  draw | accept | decline | resign
  mark SQUARE PIECE | unmark SQUARE | markers   your private notes on enemy pieces
Both
  legal                            the actions you may send now
  show                             the table or board as text
  wait turn|start|end              wait for your turn, the start, or the end (scripts)
  replay [ROOM]                    replay a finished game with everything revealed
  help | quit"""


@dataclass
class Command:
    """A parsed line: a message to send, a local action, or an error."""

    message: Json | None = None
    local: str | None = None
    args: list[str] = field(default_factory=list)
    error: str | None = None


def _value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def create_message(game: str, words: list[str]) -> Json:
    """Build a ``create_room`` message from ``key=value`` words (see COMMANDS_HELP)."""
    if game not in ("perudo", "kriegspiel"):
        raise ValueError(f"the game is perudo or kriegspiel, not {game!r}")
    message: Json = {"type": "create_room", "game": game, "options": {}}
    options: Json = message["options"]
    for word in words:
        key, sep, raw = word.partition("=")
        if not sep:
            if key == "private":
                message["public"] = False
            elif key == "public":
                message["public"] = True
            elif key == "noautostart":
                message["autostart"] = False
            else:
                raise ValueError(f"expected key=value or private/noautostart, not {word!r}")
            continue
        if key == "clock":
            base, _, inc = raw.partition("+")
            message["clock"] = {"base": float(base), "increment": float(inc or 0)}
        elif key == "turn_time":
            message["turn_time"] = float(raw)
        elif key == "spectators":
            message["spectators"] = raw
        elif key in ("public", "autostart", "sit"):
            message[key] = bool(_value(raw))
        elif key == "dice":
            options["dice_per_player"] = _value(raw)
        elif key == "seats" and game == "kriegspiel":
            if _value(raw) != 2:
                raise ValueError(f"Kriegspiel is for two players, not seats={raw}")
        else:
            options[key] = _value(raw)
    return message


def _seat(args: list[str], index: int) -> Json:
    if len(args) > index:
        return {"seat": int(args[index])}
    return {}


def parse(line: str, state: ClientState) -> Command:
    """Read one command line; the current room fills in ``room`` where needed."""
    words = line.strip().split()
    if not words:
        return Command(local="noop")
    head, args = words[0].lower(), words[1:]
    current = state.current
    try:
        if head in LOCAL:
            return Command(local=head, args=args)
        if head in ("rooms", "list"):
            msg: Json = {"type": "list_rooms"}
            if args:
                msg["game"] = args[0]
            return Command(message=msg)
        if head == "create":
            if not args:
                return Command(error="create perudo|kriegspiel [key=value ...]")
            return Command(message=create_message(args[0].lower(), args[1:]))
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
        if head == "profile":
            return Command(message={"type": "profile", **({"player": args[0]} if args else {})})
        if head == "ping":
            return Command(message={"type": "ping"})
        if current is None:
            return Command(error=f"{head}: join, watch or create a room first")
        if head in ("start", "leave"):
            return Command(message={"type": head, "room": current})
        if head in ("say", "chat"):
            text = line.strip().split(None, 1)[1] if args else ""
            if not text:
                return Command(error="say TEXT")
            return Command(message={"type": "say", "room": current, "text": text})
        if head == "bot":
            msg = {"type": "add_bot", "room": current}
            rest = list(args)
            if rest and not rest[0].isdigit():
                msg["bot"] = rest.pop(0)
            if rest:
                msg["seat"] = int(rest[0])
            return Command(message=msg)
        if head == "hint":
            msg = {"type": "hint", "room": current}
            for word in args:
                key, _, raw = word.partition("=")
                if key in ("bluff", "reliability"):
                    msg[key] = float(raw)
                elif key == "lang":
                    msg["lang"] = raw
                else:
                    return Command(error="hint [bluff=0..1] [reliability=0..1] [lang=en|it]")
            return Command(message=msg)
        if head == "act" and args:
            return action_command(" ".join(args), state)
        if head == "bid" and args:
            return action_command(args[0], state)
        if not looks_like_action(head):
            return Command(error=f"unknown command {head!r} (type help for the list)")
        return action_command(" ".join(words), state)
    except ValueError as exc:
        return Command(error=str(exc))


def looks_like_action(word: str) -> bool:
    """Whether ``word`` has the shape of a game action (a bid, a UCI move, dudo, any...)."""
    word = word.lower()
    return bool(
        word[:1].isdigit()  # a bid, or an attempt at one that Bid.parse will explain
        or UCI.match(word)
        or word in KRIEG_WORDS
        or word in ("dudo", "calza")
    )


def normalize_action(text: str, game: str) -> str:
    """The engine's spelling of what was typed (``5X4`` -> ``5x4``, ``draw`` -> ``offer_draw``)."""
    text = text.strip().lower().replace(" ", "")
    if game == "kriegspiel":
        return KRIEG_WORDS.get(text, text)
    return text


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
    always = {"resign", "offer_draw", "accept_draw", "decline_draw"}
    if room.game == "kriegspiel" and action in always:
        return None
    if room.turn is None:
        return "it is not your turn"
    legal = room.legal
    if action in legal:
        return None
    if room.game == "perudo":
        bid = try_bid(action)
        if bid is None and action not in ("dudo", "calza"):
            return f"{action!r} is not a bid: write QxF like 5x4 (aces are 1), dudo or calza"
        if action == "calza":
            return "calza is not allowed here"
        last = room.perudo.last_bid
        return f"{action} is not a legal bid now" + (
            f" (the bid to beat is {last})" if last else ""
        )
    if action in room.kriegspiel.refused:
        return f"{action} was already refused this turn"
    promotions = [m for m in legal if m.startswith(action) and len(m) == len(action) + 1]
    if promotions:
        return f"{action} promotes: add the piece, e.g. {promotions[0]}"
    return f"{action} is not possible on your board now"


def action_command(text: str, state: ClientState) -> Command:
    """An ``act`` message for ``text``, or the reason it would be refused."""
    room = state.current_room
    game = room.game if room else ""
    action = normalize_action(text, game)
    problem = check_action(action, state)
    if problem is not None:
        return Command(error=problem)
    assert room is not None
    return Command(message={"type": "act", "room": room.room, "action": action})

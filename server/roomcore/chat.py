"""Chat in a room: the pure part (the text rules, the channels, the frame).

A ``say`` message is plain text, at most :data:`MAX_CHARS` characters after trimming, with
no control or format characters (a newline and the emoji joiner U+200D are allowed;
bidirectional overrides are not, so a line cannot pretend to be someone else's). Seated
players and spectators talk on separate channels, each heard only by its own members, so
a spectator who may see more than a player can never whisper it to the table. The room
core decides who is who, stores each line with the game and sends it; clients must show
``text`` as text (the browser client never parses markup).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from server.errors import ClientError
from server.store.contract import ChatRow

#: the longest message, in characters after trimming
MAX_CHARS = 300
#: messages per second a player may say in one room, sustained, and the burst
RATE = 1.0
BURST = 5.0
#: the newest lines of its channel a connection gets when it attaches to a room
HISTORY = 100

PLAYERS, SPECTATORS = "players", "spectators"
ALLOWED = frozenset("\n\u200d")  # control/format characters a message may hold


def clean_text(text: str) -> str:
    """The message as it will be sent; raise ``bad_message`` when it cannot be said."""
    text = text.strip()
    if not text:
        raise ClientError("bad_message", "say: the text is empty")
    if len(text) > MAX_CHARS:
        raise ClientError("bad_message", f"say: at most {MAX_CHARS} characters, not {len(text)}")
    if any(unicodedata.category(ch) in ("Cc", "Cf") and ch not in ALLOWED for ch in text):
        raise ClientError("bad_message", "say: control characters are not allowed")
    return text


def channel_of(seat: int | None) -> str:
    """The channel a viewer talks and listens on: players (seated) or spectators."""
    return SPECTATORS if seat is None else PLAYERS


def chat_frame(room: str, line: ChatRow) -> dict[str, Any]:
    """The ``chat`` frame carrying ``line`` (``n`` numbers the room's lines from 1, so a
    client that hears a line twice, after a reconnect, can tell)."""
    return {
        "type": "chat",
        "room": room,
        "n": line.n,
        "channel": line.channel,
        "seat": line.seat,
        "player": line.player,
        "name": line.name,
        "text": line.text,
    }

"""Chat in a room: validation, channels, the frame, and :class:`Chat`, which a room calls.

A ``say`` message is plain text, at most :data:`MAX_CHARS` characters after trimming, with
no control or format characters (a newline and the emoji joiner U+200D are allowed;
bidirectional overrides are not, so a line cannot pretend to be someone else's). Seated
players and spectators talk on separate channels, each heard only by its own members, so
a spectator who may see more than a player can never whisper it to the table. The room
decides who is who; this module judges the text, builds the frame and picks the
listeners. Clients must show ``text`` as text (the browser client never parses markup).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from server.errors import ClientError
from server.limits import TokenBucket
from server.protocol import encode

if TYPE_CHECKING:
    from server.connection import Client

#: the longest message, in characters after trimming
MAX_CHARS = 300
#: messages per second a player may say in one room, sustained, and the burst
RATE = 1.0
BURST = 5.0

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


def chat_frame(room: str, seat: int | None, player: str, name: str, text: str) -> dict[str, Any]:
    """The ``chat`` frame every member of the speaker's channel receives."""
    return {
        "type": "chat",
        "room": room,
        "channel": channel_of(seat),
        "seat": seat,
        "player": player,
        "name": name,
        "text": text,
    }


class Chat:
    """One room's chat: whether it is on, each player's rate, and who hears a message.

    The room calls :meth:`say` from its actor with its attached connections (without its
    house bots, which do not read chat)."""

    def __init__(self, room: str, enabled: bool = True) -> None:
        self.room = room
        self.enabled = enabled
        self._buckets: dict[str, TokenBucket] = {}

    def say(
        self, speaker: Client, listeners: Mapping[Client, int | None], text: str, now: float
    ) -> None:
        """Send ``text`` from ``speaker`` to every listener on its channel; raise
        :class:`ClientError` when chat is off, the speaker is not in the room, it talks too
        fast, or the text cannot be said."""
        player = speaker.player
        if not self.enabled:
            raise ClientError("unsupported", f"chat is off in room {self.room}")
        if player is None or speaker not in listeners:
            raise ClientError("no_such_room", f"you are not in a room {self.room!r}")
        bucket = self._buckets.setdefault(player.id, TokenBucket(RATE, BURST))
        if not bucket.take(now):
            raise ClientError("rate_limited", f"chat: at most {RATE:g} message per second")
        seat = listeners[speaker]
        frame = encode(chat_frame(self.room, seat, player.id, player.name, clean_text(text)))
        channel = channel_of(seat)
        for client, viewer in listeners.items():
            if channel_of(viewer) == channel:
                client.send(frame)

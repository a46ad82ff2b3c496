"""Guest identities: a display name, a public id and a secret token stored only hashed.

``hello`` without a token makes a new guest; ``hello`` with a token reclaims that guest
(and so its seats) from any connection. Tokens are 32 random bytes from :mod:`secrets`,
so a plain SHA-256 is a safe hash for them (no password stretching is needed).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
import unicodedata
from dataclasses import dataclass

from server.errors import ClientError
from server.ids import opaque
from server.store.contract import PlayerRow, Store
from server.wire.frames import PlayerInfo

MAX_NAME = 32


@dataclass(frozen=True, slots=True)
class Player:
    """Who is on the other end of a connection (or sits in a seat as a house bot)."""

    id: str
    name: str
    bot: bool
    kind: str = "guest"  # server.store.contract.PLAYER_KINDS
    #: the version a bot said in ``hello`` (its ratings are kept per version); "" else
    version: str = ""

    def info(self) -> PlayerInfo:
        """The public part, as frames show it."""
        return PlayerInfo(self.id, self.name, self.bot, self.kind)


def hash_token(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> str:
    """The display name, trimmed; raise ``ClientError("bad_name")`` if unusable."""
    name = " ".join(name.split())
    if not name:
        raise ClientError("bad_name", "the display name is empty")
    if len(name) > MAX_NAME:
        raise ClientError("bad_name", f"the display name is longer than {MAX_NAME} characters")
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise ClientError("bad_name", "the display name contains control characters")
    return name


class Identities:
    """Creates and reclaims players; caches them by id."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: dict[str, Player] = {}
        self._house_lock = asyncio.Lock()  # two first uses of a kind make one row

    async def hello(self, name: str, token: str | None, bot: bool) -> tuple[Player, str]:
        """The player for a ``hello`` and its token (new, or the one presented)."""
        name = check_name(name)
        if token is not None:
            row = await self.store.player_by_token(hash_token(token))
            if row is None:
                raise ClientError("bad_token", "this token does not belong to any player")
            player = Player(row.id, row.name, row.bot)
            if row.name != name:
                await self.store.rename_player(row.id, name)
                player = Player(row.id, name, row.bot)
            self._cache[player.id] = player
            return player, token
        token = opaque(32)
        player = Player("p" + secrets.token_hex(6), name, bot)
        await self.store.add_player(PlayerRow(player.id, name, bot, time.time()), hash_token(token))
        self._cache[player.id] = player
        return player, token

    async def house_bot(self, kind: str) -> Player:
        """The durable identity ``bot-<kind>`` of a house bot (one per kind, made on first
        use). House bot connections are recognised by the server's house header and say
        hello as this identity without any token, so no token is ever minted or rotated
        for it: bots of one kind launched together can never invalidate each other."""
        player_id = "bot-" + kind
        cached = self._cache.get(player_id)
        if cached is not None:
            return cached
        async with self._house_lock:
            row = await self.store.player(player_id)
            if row is None:
                row = PlayerRow(player_id, check_name(kind), True, time.time())
                # Nobody can present this token: it is random and never shown.
                await self.store.add_player(row, hash_token(secrets.token_urlsafe(32)))
        player = Player(row.id, row.name, True)
        self._cache[player.id] = player
        return player

    async def get(self, player_id: str) -> Player | None:
        """The player with this id, or ``None``."""
        cached = self._cache.get(player_id)
        if cached is not None:
            return cached
        row = await self.store.player(player_id)
        if row is None:
            return None
        player = Player(row.id, row.name, row.bot)
        self._cache[player.id] = player
        return player

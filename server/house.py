"""House bots: the server's own bots, which play as ordinary clients (DESIGN.md, idea 5).

When a host adds a bot by name (``add_bot`` with ``"bot": "perudo-expert"``), the room
keeps the seat for it and asks :class:`HouseBots` to start it: a task in this process runs
the bot with the websocket transport (:mod:`bots.remote`), exactly as an external bot
runs, connecting back over loopback. It says hello as the bot's identity ``bot-<name>``
(with a token minted at start-up, never shown) and joins with a one-use seat ticket the
room gave it, so it sees only what its seat may see and can never act for another seat.
The engine's stand-in policy (``Engine.standin_policy``) stays for seats whose player is away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any

from server.identity import Identities

log = logging.getLogger(__name__)

#: The header a house bot's connection carries (with the server's secret): such
#: connections are exempt from the per-address connection limit.
HOUSE_HEADER = "X-Umpire-House"


def bots_for(game: str) -> list[str]:
    """The names of the registered bots that play ``game``."""
    from bots.registry import BUILTIN, load_bot

    names = []
    for name in sorted(BUILTIN):
        try:
            _, factory = load_bot(name)
            if game in type(factory()).games:
                names.append(name)
        except Exception:  # a bot whose module fails to import is simply not offered
            log.warning("house bot %s cannot be loaded", name, exc_info=True)
    return names


class HouseBots:
    """Starts and stops the house bot tasks of one server."""

    def __init__(self, identities: Identities, *, think: float = 0.0) -> None:
        self.identities = identities
        self.think = think
        self.url = ""  # set once the server listens
        self.secret = secrets.token_urlsafe(24)
        self._tokens: dict[str, str] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._cache: dict[str, list[str]] = {}

    def available(self, game: str) -> list[str]:
        """The bot names a host may add to a room of ``game``."""
        if game not in self._cache:
            self._cache[game] = bots_for(game)
        return self._cache[game]

    def launch(self, room: str, seat: int, name: str, ticket: str) -> None:
        """Start bot ``name`` for ``seat`` of ``room`` (it joins with ``ticket``)."""
        task = asyncio.create_task(self._run(room, seat, name, ticket), name=f"house-{name}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, room: str, seat: int, name: str, ticket: str) -> None:
        from bots.registry import load_bot
        from bots.remote import RemotePlayer, Target

        token = self._tokens.get(name)
        if token is None:
            _, token = await self.identities.house_token(name)
            self._tokens[name] = token
        _, factory = load_bot(name)
        player = RemotePlayer(
            self.url,
            factory,
            name=name,
            target=Target(room=room, seat=seat, ticket=ticket),
            token=token,
            think=self.think,
            headers={HOUSE_HEADER: self.secret},
        )
        try:
            await player.play(1)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("house bot %s in room %s seat %d stopped", name, room, seat, exc_info=True)

    async def close(self) -> None:
        """Stop every house bot (server shutdown)."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

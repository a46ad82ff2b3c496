"""A bot entered in a hosted tournament (docs/tournaments.md): ``umpire tournament
--server URL`` runs one per bot.

:class:`TournamentEntrant` keeps one connection open as its player (a guest named after
the bot, or a bot account with ``token``): it says ``join_tournament`` after its first
``welcome``, and for every ``match`` frame of that tournament it starts a new bot
instance from the factory and plays that game through
:class:`~bots.sdk.remote.RemotePlayer` (which attaches to the match's reserved seat and
reconnects on its own), until a ``tournament`` frame says the tournament is over. The
host side (:func:`host_tournament`) creates the tournament, lets the entrants join and
starts it: the server pairs, seats and scores; this side only plays.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

from bots.client.core import ClientCore, Received
from bots.client.driver import Client, ConnectionFailed
from bots.sdk.bot import Bot, BotError, GameResult
from bots.sdk.remote import RemotePlayer, Target, listen_for_matches, match_listener

log = logging.getLogger(__name__)

#: Tournament statuses after which nothing more happens.
OVER = ("finished", "cancelled")


class TournamentEntrant:
    """One bot in one hosted tournament: join, play every game the server pairs, stop at
    the end."""

    def __init__(
        self,
        url: str,
        factory: Callable[[], Bot],
        tournament: str,
        *,
        name: str,
        token: str | None = None,
        retries: int | None = 10,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.url = url
        self.factory = factory
        self.tournament = tournament
        self.name = name
        self.token = token
        self.retries = retries
        self.headers = headers or {}
        self.results: list[GameResult] = []
        self.failed = 0
        self.joined = asyncio.Event()  #: set once the server took the entry
        self.final: dict[str, Any] | None = None  #: the last tournament frame's tournament
        self.playing: dict[str, asyncio.Task[None]] = {}
        self._done = asyncio.Event()
        self._client: Client | None = None

    async def run(self) -> dict[str, Any] | None:
        """Join and play until the tournament is over; return its final state."""
        client = self._client = match_listener(
            self.url,
            self.factory,
            name=self.name,
            token=self.token,
            retries=self.retries,
            headers=self.headers,
        )
        await listen_for_matches(
            client, lambda output: self._received(client, output), self._done, self.playing
        )
        if client.failure is not None and self.final is None:
            raise BotError(str(client.failure))
        return self.final

    def _received(self, client: Client, output: Received) -> None:
        kind, frame = output.kind, output.frame
        if kind == "welcome":
            self.token = client.core.token or self.token
            if not self.joined.is_set():
                client.send({"type": "join_tournament", "tournament": self.tournament})
        elif kind == "tournament":
            t = frame["tournament"]
            if t.get("id") != self.tournament:
                return
            self.joined.set()
            if t.get("status") in OVER:
                self.final = t
                self._done.set()
        elif kind == "match" and frame.get("source") == "tournament":
            room = str(frame["room"])
            if frame.get("ref") == self.tournament and room not in self.playing:
                self.playing[room] = asyncio.create_task(self._one(room))
        elif kind == "error" and (output.request or {}).get("type") == "join_tournament":
            log.warning("%s: the tournament refused: %s", self.name, frame.get("message"))
            self._done.set()

    async def _one(self, room: str) -> None:
        player = RemotePlayer(
            self.url,
            self.factory,
            name=self.name,
            target=Target(room=room),
            token=self.token,
            headers=self.headers,
        )
        try:
            self.results.extend(await player.play(1))
        except (BotError, ConnectionFailed) as exc:
            self.failed += 1
            log.warning("%s: tournament game %s failed: %s", self.name, room, exc)
        finally:
            self.playing.pop(room, None)


async def host_tournament(
    url: str,
    create: dict[str, Any],
    entrants: Sequence[tuple[str, Callable[[], Bot]]],
    retries: int = 10,
) -> dict[str, Any]:
    """Create a hosted tournament (``create``: the ``create_tournament`` fields), enter
    one :class:`TournamentEntrant` per (name, factory), start it and return its final
    state (the ``tournament`` reply once it is over: every game). It gives up
    (:class:`BotError`) after ``retries`` failed connection attempts in a row."""
    core = ClientCore("tournament-host", bot=True)
    host = Client(url, core, retry=0.2, retries=retries, max_size=1 << 22)
    running = asyncio.create_task(host.run())
    try:
        await _welcomed(host, running)
        reply = await host.request({"type": "create_tournament", **create}, timeout=30)
        tid = str(reply["tournament"]["id"])
        players = [
            TournamentEntrant(url, factory, tid, name=name, retries=retries)
            for name, factory in entrants
        ]
        tasks = [asyncio.create_task(p.run()) for p in players]
        try:
            joined = [asyncio.create_task(p.joined.wait()) for p in players]
            await asyncio.wait_for(asyncio.gather(*joined), timeout=60)
            await host.request({"type": "start_tournament", "tournament": tid}, timeout=30)
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
        # (asked, not the last push: a push carries the current round's games only)
        ask = {"type": "tournament", "tournament": tid, "follow": False}
        final: dict[str, Any] = (await host.request(ask))["tournament"]
        return final
    finally:
        await host.close()
        with contextlib.suppress(ConnectionFailed, asyncio.CancelledError):
            await running


async def _welcomed(client: Client, running: asyncio.Task[None]) -> None:
    waiting = asyncio.create_task(client.ready.wait())
    await asyncio.wait({waiting, running}, return_when=asyncio.FIRST_COMPLETED)
    if not waiting.done():
        waiting.cancel()
        exc = running.exception()
        raise BotError(str(exc or f"lost the server at {client.url}")) from exc

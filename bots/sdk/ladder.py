"""A bot on the server's ranked ladder: ``umpire bot SPEC --ladder --max-concurrent 4``.

:class:`LadderPlayer` keeps one connection (the *ladder connection*) open with the bot
account's API token: after every ``welcome`` (the first, and each one after a reconnect)
it says ``ladder {game, rules, max_concurrent}``, and for every ``match`` frame with
``source: "ladder"`` it starts a new bot instance from the factory and plays that one
game on a connection of its own, through :class:`~bots.sdk.remote.RemotePlayer` (which
joins the match's room, its reserved seat, and reconnects on its own). Games run
concurrently, one task each: the server never offers more at once than ``max_concurrent``
(clamped to its own cap; ``ladder_joined`` says the number it took).

A dropped ladder connection reconnects with backoff and says ``ladder`` again: the server
keeps the membership for its grace period (60 s by default). Seats of its game that the
bot holds when it connects (``welcome.seats``: this program was restarted in the middle
of games) are played too, each by a new instance that receives its game from the start.
A refused ``ladder`` (a guest's token, a game never rated) ends :meth:`LadderPlayer.run`
with :class:`~bots.sdk.bot.BotError`. :meth:`LadderPlayer.stop`
says ``max_concurrent: 0`` (leave), plays the games the server paired before it read the
leave (their ``match`` frames come before its ``ladder_joined`` answer: an opponent waits
for each), lets the games in progress end and closes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bots.client.core import Received
from bots.client.driver import Client, ConnectionFailed
from bots.sdk.bot import Bot, BotError, GameResult
from bots.sdk.remote import RemotePlayer, Target, listen_for_matches, match_listener

log = logging.getLogger(__name__)


@dataclass(slots=True)
class LadderStats:
    """What a ladder run did: results, and the most games it played at once."""

    results: list[GameResult] = field(default_factory=list)
    failed: int = 0
    started: int = 0
    #: the most bot instances alive at once: a game's instance may still be saying
    #: goodbye when the server, which counts a game until its end is stored, offers the
    #: next one, so this may exceed ``max_concurrent`` by one for a moment
    most_at_once: int = 0
    #: the ``ladder_joined`` frames the server sent (the last one holds the cap taken)
    joined: list[dict[str, Any]] = field(default_factory=list)


class LadderPlayer:
    """Plays ladder games for one bot account until :meth:`stop` (or ``games`` games)."""

    def __init__(
        self,
        url: str,
        factory: Callable[[], Bot],
        *,
        token: str,
        game: str,
        name: str = "bot",
        rules: str | None = None,
        max_concurrent: int = 1,
        seats: int | None = None,
        games: int | None = None,
        retries: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.url = url
        self.factory = factory
        self.token = token
        self.game = game
        self.name = name
        self.rules = rules
        self.max_concurrent = max_concurrent
        self.seats = seats
        self.games = games  #: stop after this many games were offered (None: never)
        self.retries = retries
        self.headers = headers or {}
        self.stats = LadderStats()
        self.player_id: str | None = None  #: the bot account's id (from ``welcome``)
        self.playing: dict[str, asyncio.Task[None]] = {}
        self._client: Client | None = None
        self._done = asyncio.Event()
        self._leaving = False
        #: a leave was sent and the server has not yet answered it: pairings it made
        #: before reading the leave may still come (their ``match`` frames come first),
        #: and an opponent waits for each, so they are played too
        self._unanswered = False
        #: why the server refused ``ladder`` (the run then ends with :class:`BotError`)
        self.refused: str | None = None

    def _ladder_message(self, max_concurrent: int) -> dict[str, Any]:
        message: dict[str, Any] = {
            "type": "ladder",
            "game": self.game,
            "max_concurrent": max_concurrent,
        }
        if self.rules:
            message["rules"] = self.rules
        if self.seats:
            message["seats"] = self.seats
        return message

    async def run(self) -> LadderStats:
        """Join the ladder and play until stopped; return what happened."""
        client = self._client = match_listener(
            self.url,
            self.factory,
            name=self.name,
            token=self.token,
            retries=self.retries,
            headers=self.headers,
        )
        await listen_for_matches(
            client,
            lambda output: self._received(client, output),
            self._done,
            self.playing,
            keepalive=True,  # (the ladder connection sends nothing else for hours)
        )
        if self.refused is not None:
            raise BotError(f"the server refused the ladder: {self.refused}")
        if client.failure is not None and not self._leaving:
            raise BotError(str(client.failure))
        return self.stats

    def _received(self, client: Client, output: Received) -> None:
        kind, frame = output.kind, output.frame
        if kind == "welcome":
            self.player_id = (frame.get("player") or {}).get("id")
            # seats this bot holds in unfinished games of its game (a restart of this
            # program in the middle of them): a new instance plays each from its start
            for seat in frame.get("seats") or []:
                room = str(seat.get("room"))
                if seat.get("game") == self.game and room not in self.playing:
                    self._play(room, count=False)
        if kind == "welcome" and not self._leaving:
            client.send(self._ladder_message(self.max_concurrent))
        elif kind == "welcome" and self._unanswered:
            client.send(self._ladder_message(0))  # (the leave was lost with a connection)
        elif kind == "ladder_joined":
            self.stats.joined.append(frame)
            if self._leaving and frame.get("max_concurrent") == 0:
                self._unanswered = False
                self._settle()
        elif kind == "error" and output.request is not None:
            if output.request.get("type") == "ladder":
                self.refused = f"{frame.get('code')}: {frame.get('message')}"
                self._leaving = True
                if not self.playing:
                    self._done.set()
        elif kind == "match" and frame.get("source") == "ladder":
            room = str(frame["room"])
            if room not in self.playing:
                self._play(room)

    def _play(self, room: str, count: bool = True) -> None:
        if count:
            self.stats.started += 1
        task = asyncio.create_task(self._one(room))
        self.playing[room] = task
        self.stats.most_at_once = max(self.stats.most_at_once, len(self.playing))
        if count and self.games is not None and self.stats.started >= self.games:
            self.stop()

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
            results = await player.play(1)
            self.stats.results.extend(results)
        except (BotError, ConnectionFailed) as exc:
            self.stats.failed += 1
            log.warning("%s: ladder game %s failed: %s", self.name, room, exc)
        finally:
            self.playing.pop(room, None)
            self._settle()

    def _settle(self) -> None:
        """Done once leaving, with no game in progress and the leave answered."""
        if self._leaving and not self.playing and not self._unanswered:
            self._done.set()

    def stop(self) -> None:
        """Leave the ladder: no new games; the ones in progress are played to the end."""
        if self._leaving:
            return
        self._leaving = True
        client = self._client
        if client is not None and client.core.ready:
            client.send(self._ladder_message(0))
            self._unanswered = True
        self._settle()

"""The websocket transport: a bot plays on a server as an ordinary protocol client.

It speaks docs/protocol.md and nothing else: ``hello`` as a bot, ``join`` a room (by id or
invite code, or the first open room of its game, or a new public one), then feeds the
bot the same Bot API as the local transport: ``start`` when the game begins, ``observe``
for each ``event`` frame, ``decide`` for each ``turn`` frame, ``rejected`` for an
``error`` answering its ``act``, ``end`` with the final ``room`` frame's outcome.

It is glue over the one protocol client (:mod:`bots.client`): the core keeps the token,
matches replies by ``ref``, keeps the room's stream gap-free (a game joined in progress is
asked for from its first event), holds turns back until their events are in, and paces
the messages; its driver reconnects after a drop (with backoff) and the core ``resume``s
the room from the last sequence number it saw, so the bot plays on. House bots started by the server
use this very code (in a runner process, :mod:`bots.tools.house_runner`), with a seat ticket the
server gave them and no pause of their own: the server paces its house seats.

``think`` is an optional pause per turn, for a human-friendly pace: the first attempt of a
turn is sent no sooner than ``think`` seconds after the turn frame; a new attempt after a
refused or illegal one is sent at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bots.client.core import ClientCore, GameEnded, Output, Received, Refused, Turn
from bots.client.driver import Client, ClientError, ConnectionFailed
from bots.sdk.bot import Bot, BotError, Decision, GameInfo, GameResult

log = logging.getLogger(__name__)

#: Seconds between a waiting bot's looks for an open room to move to (see gather_room).
GATHER_EVERY = 1.0
#: Refusals in a row after which the bot's choice is replaced by the first legal action.
MAX_REJECTIONS = 3
#: Refusals that concern the action itself (another attempt on the same turn may pass).
ACTION_REFUSALS = ("illegal", "malformed", "repeated")


@dataclass(slots=True)
class Target:
    """Which room to play in: a room id, an invite code, or any open room of ``game``."""

    room: str | None = None
    invite: str | None = None
    seat: int | None = None
    ticket: str | None = None  #: a house bot's seat ticket (from the server only)
    game: str | None = None  #: for "any open room of this game" (or a new one)
    options: dict[str, Any] = field(default_factory=dict)  #: for a room this bot creates


@dataclass(slots=True)
class _Game:
    """What the transport tracks of the game it plays (the stream is the core's)."""

    room: str
    seat: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    player_ids: list[str | None] = field(default_factory=list)
    game: str = ""
    seats: int = 0
    started: bool = False
    ended: bool = False
    turn: dict[str, Any] | None = None
    pending: str | None = None  #: the action sent and not yet answered
    rejections: int = 0


class RemotePlayer:
    """Plays games for one bot factory on one server; see :func:`play_remote`."""

    def __init__(
        self,
        url: str,
        factory: Callable[[], Bot],
        *,
        name: str,
        target: Target,
        token: str | None = None,
        max_reconnects: int = 10,
        think: float = 0.0,
        headers: dict[str, str] | None = None,
        gather_every: float = GATHER_EVERY,
    ) -> None:
        self.url = url
        self.factory = factory
        self.name = name
        self.target = target
        self.token = token
        self.max_reconnects = max_reconnects
        self.think = think  #: seconds from a turn's start to its first attempt
        self.headers = headers or {}
        self.gather_every = gather_every  #: seconds between looks for a room to move to
        self.player_id: str | None = None
        self.results: list[GameResult] = []

    async def play(self, games: int = 1) -> list[GameResult]:
        """Play ``games`` games (one after the other) and return their results."""
        for _ in range(games):
            result = await self._play_one()
            if result is not None:
                self.results.append(result)
            self.target = Target(game=self.target.game, options=self.target.options)
        return self.results

    async def _play_one(self) -> GameResult | None:
        bot = self.factory()
        core = ClientCore(
            self.name,
            token=self.token,
            bot=True,
            forget_bad_token=False,
            from_start=True,
            bot_version=bot.version,  # (its ratings are kept per version)
        )
        client = Client(
            self.url,
            core,
            retry=0.2,
            retries=self.max_reconnects,
            max_size=1 << 22,
            additional_headers=self.headers,
        )
        outputs = client.outputs()
        running = asyncio.create_task(client.run())
        gathering: asyncio.Task[None] | None = None
        try:
            await self._ready(client, running)
            state = await self._enter(client, running)
            if self.target.game and not (self.target.room or self.target.invite):
                gathering = asyncio.create_task(self._gather(client, state))
            async for output in outputs:
                result = await self._handle(client, bot, state, output)
                if result is not None or state.ended:
                    return result
            raise BotError(str(client.failure or f"lost the server at {self.url}"))
        finally:
            if gathering is not None:
                gathering.cancel()
                with contextlib.suppress(asyncio.CancelledError, ClientError, BotError):
                    await gathering
            self.token = core.token or self.token
            await client.close()
            # Closed, it would still sit out a reconnection's backoff (up to 15 s) before
            # it noticed: a house runner outlived its SIGKILLed server so.
            running.cancel()
            with contextlib.suppress(ConnectionFailed, asyncio.CancelledError):
                await running

    async def _ready(self, client: Client, running: asyncio.Task[None]) -> None:
        """Wait for the welcome; raise :class:`BotError` if the server cannot be reached."""
        waiting = asyncio.create_task(client.ready.wait())
        await asyncio.wait({waiting, running}, return_when=asyncio.FIRST_COMPLETED)
        if not waiting.done():
            waiting.cancel()
            exc = running.exception()
            raise BotError(str(exc or f"lost the server at {self.url}")) from exc
        self.player_id = (client.core.player or {}).get("id")

    async def _enter(self, client: Client, running: asyncio.Task[None]) -> _Game:
        """Join the target room (or find or create one); return the game being joined."""
        while True:
            try:
                return await self._enter_once(client)
            except ClientError as exc:
                if exc.code != "disconnected":
                    raise BotError(f"{exc.code}: {exc}") from exc
                await self._ready(client, running)  # the link dropped: again, once back

    async def _enter_once(self, client: Client) -> _Game:
        t = self.target
        if t.room or t.invite:
            frame: dict[str, Any] = {"type": "join"}
            for key in ("room", "invite", "seat", "ticket"):
                value = getattr(t, key)
                if value is not None:
                    frame[key] = value
            reply = await client.request(frame, timeout=None)
            return _Game(room=reply["room"], seat=reply["seat"])
        if not t.game:
            raise BotError("say which room to join, or which game to look for")
        listing = await client.request({"type": "list_rooms", "game": t.game}, timeout=None)
        for room in listing["rooms"]:
            if room["state"] == "waiting" and any(s["player"] is None for s in room["seats"]):
                try:
                    reply = await client.request({"type": "join", "room": room["room"]})
                except ClientError as exc:  # raced by another player: try the next one
                    if exc.code == "disconnected":
                        raise
                    continue
                return _Game(room=reply["room"], seat=reply["seat"])
        message = {"type": "create_room", "game": t.game, "options": t.options}
        reply = await client.request(message, timeout=None)
        return _Game(room=reply["room"], seat=reply["seat"])

    async def _gather(self, client: Client, state: _Game) -> None:
        """Bots started together each find no open room and create one: until the game
        starts, look every :attr:`gather_every` seconds for an open room to move to, so
        that they end up together (see :func:`gather_room`)."""
        while _waiting(state):
            await asyncio.sleep(self.gather_every)
            if not _waiting(state):
                return
            try:
                await self._regroup(client, state)
            except ClientError as exc:
                log.info("%s: looking for a room to move to: %s", self.name, exc)

    async def _regroup(self, client: Client, state: _Game) -> None:
        listing = await client.request({"type": "list_rooms", "game": self.target.game})
        better = gather_room(listing["rooms"], state.room, self.player_id)
        if better is None or not _waiting(state):
            return
        log.info("%s: moving from room %s to %s", self.name, state.room, better)
        old, state.room = state.room, better  # (the old room's frames are ignored from now)
        await client.request({"type": "leave", "room": old})
        try:
            reply = await client.request({"type": "join", "room": better})
        except ClientError as exc:
            if exc.code == "disconnected":
                raise
            entered = await self._enter_once(client)  # raced: any open room, or a new one
            state.room, state.seat = entered.room, entered.seat
            return
        state.room, state.seat = reply["room"], reply["seat"]

    async def _handle(
        self, client: Client, bot: Bot, state: _Game, output: Output
    ) -> GameResult | None:
        if isinstance(output, GameEnded):
            return (
                await self._finish(client, bot, state, output)
                if output.room == state.room
                else None
            )
        if not isinstance(output, Received) or output.room not in (None, state.room):
            return None
        kind, frame = output.kind, output.frame
        if isinstance(output, Refused):
            await self._refused(client, bot, state, output)
        elif kind == "room":
            state.game = frame["game"]
            state.options = frame["options"]
            state.seats = len(frame["seats"])
            state.players = [s["name"] or "?" for s in frame["seats"]]
            state.player_ids = [s["player"] for s in frame["seats"]]
        elif kind == "snapshot":
            await self._start(client, bot, state, frame["view"])
        elif kind == "event":
            await self._start(client, bot, state, {})
            await bot.observe(frame["event"])
        elif isinstance(output, Turn):
            if frame["seat"] == state.seat:
                await self._start(client, bot, state, frame["view"])
                state.turn = frame
                state.rejections = 0
                # The game asks again right after our own action (Kriegspiel's illegal
                # attempt): the same turn goes on, so no new pause.
                await self._decide(client, bot, state, pause=not output.retry)
        elif kind == "ack":
            state.pending = None
            state.turn = None
        elif kind == "left":
            state.ended = True  # the server sent this bot away (a stand-in whose player is back)
        return None

    async def _start(self, client: Client, bot: Bot, state: _Game, view: dict[str, Any]) -> None:
        stream = client.core.streams.get(state.room)
        state.seat = stream.seat if stream is not None and stream.seat is not None else state.seat
        if state.started or state.seat is None:
            return
        state.started = True
        profiles: dict[int, dict[str, Any]] = {}
        for seat, player_id in enumerate(state.player_ids):
            if player_id is None or seat == state.seat:
                continue
            with contextlib.suppress(ClientError):
                profiles[seat] = await client.request({"type": "profile", "player": player_id})
        info = GameInfo(
            game=state.game,
            seat=state.seat,
            seats=state.seats,
            options=state.options,
            view=view,
            room=state.room,
            players=state.players,
            profiles=profiles,
        )
        await bot.start(info)

    async def _decide(self, client: Client, bot: Bot, state: _Game, pause: bool = False) -> None:
        """Ask the bot for an action and send it (after the turn's pause if ``pause``)."""
        turn = state.turn
        assert turn is not None and state.seat is not None
        loop = asyncio.get_running_loop()
        started = loop.time()
        decision = Decision(state.seat, turn["view"], list(turn["legal"]), turn["time_left"])
        if state.rejections >= MAX_REJECTIONS:
            action = decision.legal[0]
            log.warning("%s: %d refusals in a row; playing %s", self.name, state.rejections, action)
        else:
            action = await bot.decide(decision)
        if pause and self.think:
            await self.pause(max(0.0, self.think - (loop.time() - started)))
        state.pending = action
        client.act(state.room, action)

    async def pause(self, seconds: float) -> None:
        """The per-turn pause before a turn's first attempt (``think`` less the time the
        bot took to decide). Override it to wait differently."""
        await asyncio.sleep(seconds)

    async def _refused(self, client: Client, bot: Bot, state: _Game, output: Refused) -> None:
        request = output.request or {}
        if request.get("type") == "resume":
            # a refused resume ends this game for the bot rather than leaving it waiting
            # for frames that never come
            raise BotError(f"resume refused: {output.code}: {output.message}")
        if request.get("type") != "act" or state.pending is None:
            log.info("%s: server error %s: %s", self.name, output.code, output.message)
            return
        action, state.pending = state.pending, None
        await bot.rejected(action, output.code, output.message)
        # Only a refusal of the action itself deserves another try on this turn; anything
        # else (not our turn any more, the game ended) waits for the next turn frame.
        if output.code in ACTION_REFUSALS and state.turn is not None:
            state.rejections += 1
            await self._decide(client, bot, state)

    async def _finish(
        self, client: Client, bot: Bot, state: _Game, ended: GameEnded
    ) -> GameResult | None:
        state.ended = True
        if state.seat is None or not state.started:
            return None
        frame = ended.frame
        outcome = frame.get("outcome") or {}
        ranks = list(outcome.get("ranks") or [1] * state.seats)
        reason = str(outcome.get("reason") or frame.get("reason") or frame["state"])
        result = GameResult(state.seat, ranks, reason, frame)
        await bot.end(result)
        with contextlib.suppress(ClientError):
            await client.request({"type": "leave", "room": state.room}, timeout=2)
        return result


def _waiting(state: _Game) -> bool:
    """Whether the bot's game has not started (nor ended) yet."""
    return not (state.started or state.ended)


def gather_room(rooms: list[dict[str, Any]], mine: str, me: str | None) -> str | None:
    """The open room a bot waiting in room ``mine`` should move to, or ``None``.

    The rule converges whatever the timing: a bot moves only while its room is waiting
    and every other player in it is a bot (a person who sat down with it is never left),
    and only to a waiting room with a free seat whose id is smaller (as text) than its
    own. The smallest such room's bots never move, so the bots end up in it until it is
    full and its game starts; the rest then gather in the next smallest."""
    own = next((r for r in rooms if r["room"] == mine), None)
    if own is None or own["state"] != "waiting":
        return None
    if any(s["player"] not in (None, me) and not s["bot"] for s in own["seats"]):
        return None
    open_ids = [
        r["room"]
        for r in rooms
        if r["room"] < mine
        and r["state"] == "waiting"
        and any(s["player"] is None for s in r["seats"])
    ]
    return min(open_ids, default=None)


async def play_remote(
    url: str,
    factory: Callable[[], Bot],
    *,
    name: str,
    target: Target,
    games: int = 1,
    token: str | None = None,
    retries: int = 10,
) -> list[GameResult]:
    """Play ``games`` games on the server at ``url`` with bots made by ``factory``; give up
    (:class:`BotError`) after ``retries`` failed connection attempts in a row."""
    player = RemotePlayer(
        url, factory, name=name, target=target, token=token, max_reconnects=retries
    )
    return await player.play(games)


def match_listener(
    url: str,
    factory: Callable[[], Bot],
    *,
    name: str,
    token: str | None,
    retries: int | None,
    headers: dict[str, str] | None = None,
) -> Client:
    """The connection a bot account keeps open to hear its ``match`` frames (the ladder,
    a hosted tournament: bots.sdk.ladder, bots.sdk.entrant); each match is then played
    on a connection of its own by a :class:`RemotePlayer`. It says the bot's version."""
    core = ClientCore(
        name,
        token=token,
        bot=True,
        forget_bad_token=False,
        bot_version=factory().version,
    )
    return Client(
        url,
        core,
        retry=0.2,
        retries=retries,
        max_size=1 << 22,
        additional_headers=headers or {},
    )


async def listen_for_matches(
    client: Client,
    on_received: Callable[[Received], None],
    done: asyncio.Event,
    playing: Mapping[str, asyncio.Task[None]],
    *,
    keepalive: bool = False,
) -> None:
    """Run a :func:`match_listener` connection: hand every frame to ``on_received`` until
    ``done`` is set or the connection gives up, then let the games in ``playing`` end and
    close. ``keepalive``: ping now and then, for a connection that otherwise sends nothing
    for hours (the server's ``welcome.limits.idle_timeout`` would close it)."""
    outputs = client.outputs()
    running = asyncio.create_task(client.run())

    async def read() -> None:
        async for output in outputs:
            if isinstance(output, Received):
                on_received(output)

    async def ping() -> None:
        while True:
            await client.ready.wait()
            limits = (client.core.welcome or {}).get("limits") or {}
            idle = limits.get("idle_timeout") or 0
            await asyncio.sleep(min(60.0, idle / 3) if idle else 60.0)
            if client.core.ready:
                client.send({"type": "ping"})

    reading = asyncio.create_task(read())
    pinging = asyncio.create_task(ping()) if keepalive else None
    waiting = asyncio.create_task(done.wait())
    try:
        await asyncio.wait({waiting, running}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
        if pinging is not None:
            pinging.cancel()
        if playing:
            await asyncio.gather(*playing.values(), return_exceptions=True)
        await client.close()
        with contextlib.suppress(ConnectionFailed, asyncio.CancelledError):
            await running
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reading

"""The websocket transport: a bot plays on a server as an ordinary protocol client.

It speaks docs/protocol.md and nothing else: ``hello`` as a bot, ``join`` a room (by id or
invite code, or the first open room of its game, or a new public one), then feeds the
bot the same Bot API as the local transport: ``start`` when the game begins, ``observe``
for each ``event`` frame, ``decide`` for each ``turn`` frame, ``rejected`` for an
``error`` answering its ``act``, ``end`` with the final ``room`` frame's outcome.

After a dropped connection it reconnects with its token (backing off), ``resume``s the
room from the last sequence number it saw, and plays on. House bots started by the server
use this very code (in a runner process, :mod:`bots.house_runner`), with a seat ticket the
server gave them and no pause of their own: the server paces its house seats.

``think`` is an optional pause per turn, for a human-friendly pace: the first attempt of a
turn is sent no sooner than ``think`` seconds after the turn frame; a new attempt after a
refused or illegal one is sent at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from bots.sdk import Bot, BotError, Decision, GameInfo, GameResult

log = logging.getLogger(__name__)

PROTOCOL_VERSION = 1
#: Refusals in a row after which the bot's choice is replaced by the first legal action.
MAX_REJECTIONS = 3


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
    """What the transport tracks of the game in progress."""

    room: str
    seat: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    player_ids: list[str | None] = field(default_factory=list)
    game: str = ""
    seats: int = 0
    started: bool = False
    ended: bool = False
    last_seq: int = 0
    turn: dict[str, Any] | None = None
    pending: str | None = None  #: the action sent and not yet acknowledged
    acked_seq: int = -1  #: the seq of the last ack (the turn after it may be a retry)
    rejections: int = 0
    resyncing: bool = False  #: asked for the whole stream; turns before it are stale
    final: dict[str, Any] | None = None  #: the room frame that ended the game, once seen
    held_turn: dict[str, Any] | None = None  #: a turn frame that came during a resync


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
    ) -> None:
        self.url = url
        self.factory = factory
        self.name = name
        self.target = target
        self.token = token
        self.max_reconnects = max_reconnects
        self.think = think  #: seconds from a turn's start to its first attempt
        self.headers = headers or {}
        self.player_id: str | None = None
        self.results: list[GameResult] = []
        self._ws: ClientConnection | None = None
        self._early: list[dict[str, Any]] = []
        # Pacing: stay within the server's rate limit (from ``welcome.limits``).
        self._rate = 20.0
        self._burst = 40.0
        self._tokens = self._burst
        self._stamp = 0.0

    async def _send(self, **frame: Any) -> None:
        assert self._ws is not None
        await self._pace()
        await self._ws.send(json.dumps(frame))

    async def _pace(self) -> None:
        """Wait as long as needed to stay within the server's message rate."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens < 1.0:
            await asyncio.sleep((1.0 - self._tokens) / self._rate)
            self._stamp = loop.time()
            self._tokens = 1.0
        self._tokens -= 1.0

    async def _hello(self) -> dict[str, Any]:
        frame: dict[str, Any] = {
            "type": "hello",
            "v": PROTOCOL_VERSION,
            "name": self.name,
            "bot": True,
        }
        if self.token:
            frame["token"] = self.token
        await self._send(**frame)
        while True:
            reply = await self._recv()
            if reply["type"] == "welcome":
                self.token = reply["token"]
                self.player_id = reply["player"]["id"]
                limits = reply.get("limits") or {}
                # keep a margin below the server's limits
                self._rate = 0.8 * float(limits.get("rate") or self._rate)
                self._burst = max(1.0, 0.5 * float(limits.get("burst") or self._burst))
                self._tokens = self._burst
                return reply
            if reply["type"] == "error":
                raise BotError(f"the server refused hello: {reply['code']}: {reply['message']}")

    async def _recv(self) -> dict[str, Any]:
        assert self._ws is not None
        text = await self._ws.recv()
        frame: dict[str, Any] = json.loads(text)
        return frame

    async def play(self, games: int = 1) -> list[GameResult]:
        """Play ``games`` games (one after the other) and return their results."""
        for _ in range(games):
            result = await self._play_one()
            if result is not None:
                self.results.append(result)
            self.target = Target(game=self.target.game, options=self.target.options)
        return self.results

    async def _play_one(self) -> GameResult | None:
        state: _Game | None = None
        bot = self.factory()
        attempts = 0
        while True:
            try:
                async with connect(
                    self.url, max_size=1 << 22, additional_headers=self.headers
                ) as ws:
                    self._ws = ws
                    self._early.clear()
                    await self._hello()
                    if state is None:
                        state = await self._enter()
                    else:
                        await self._resume(state, state.last_seq)
                        # a refused resume ends this game for the bot (BotError) rather
                        # than leaving it waiting for frames that never come
                        self._early.append(await self._reply(("resumed",)))
                    attempts = 0
                    return await self._loop(bot, state)
            except (ConnectionClosed, OSError, InvalidHandshake) as exc:
                attempts += 1
                if attempts > self.max_reconnects:
                    raise BotError(f"lost the server at {self.url}: {exc}") from exc
                delay = min(10.0, 0.2 * 2**attempts) * (0.5 + random.random())
                log.info("%s: connection lost (%s); reconnecting in %.1f s", self.name, exc, delay)
                await asyncio.sleep(delay)
            except InvalidURI as exc:
                raise BotError(f"not a websocket URL: {self.url!r}") from exc
            finally:
                self._ws = None

    async def _enter(self) -> _Game:
        """Join the target room (or find or create one); return the game being joined."""
        t = self.target
        if t.room or t.invite:
            frame: dict[str, Any] = {"type": "join"}
            for key in ("room", "invite", "seat", "ticket"):
                value = getattr(t, key)
                if value is not None:
                    frame[key] = value
            await self._send(**frame)
            reply = await self._reply(("joined",))
            return _Game(room=reply["room"], seat=reply["seat"])
        if not t.game:
            raise BotError("say which room to join, or which game to look for")
        await self._send(type="list_rooms", game=t.game)
        listing = await self._reply(("rooms",))
        for room in listing["rooms"]:
            if room["state"] == "waiting" and any(s["player"] is None for s in room["seats"]):
                await self._send(type="join", room=room["room"])
                with contextlib.suppress(BotError):  # raced by another player: create one
                    reply = await self._reply(("joined",))
                    return _Game(room=reply["room"], seat=reply["seat"])
        await self._send(type="create_room", game=t.game, options=t.options)
        reply = await self._reply(("created",))
        return _Game(room=reply["room"], seat=reply["seat"])

    async def _reply(self, kinds: tuple[str, ...]) -> dict[str, Any]:
        """The next reply of one of ``kinds``; frames in between are kept for the loop."""
        while True:
            frame = await self._recv()
            if frame["type"] in kinds:
                return frame
            if frame["type"] == "error":
                raise BotError(f"{frame['code']}: {frame['message']}")
            self._early.append(frame)

    async def _loop(self, bot: Bot, state: _Game) -> GameResult | None:
        """Handle frames until the game ends; return the bot's result."""
        while True:
            if self._early:
                frame = self._early.pop(0)
            else:
                frame = await self._recv()
            result = await self._handle(bot, state, frame)
            if result is not None or state.ended:
                return result

    async def _handle(self, bot: Bot, state: _Game, frame: dict[str, Any]) -> GameResult | None:
        kind = frame.get("type")
        if frame.get("room") not in (None, state.room):
            return None
        if kind in ("joined", "resumed", "watching") and frame.get("seat") is not None:
            state.seat = frame["seat"]
        if kind == "resumed" and state.resyncing:
            # Nothing was missed after all: the turn held back is the current one.
            state.resyncing = False
            held, state.held_turn = state.held_turn, None
            if held is not None and held["seq"] == state.last_seq:
                return await self._handle(bot, state, held)
        elif kind == "room":
            state.game = frame["game"]
            state.options = frame["options"]
            state.seats = len(frame["seats"])
            state.players = [s["name"] or "?" for s in frame["seats"]]
            state.player_ids = [s["player"] for s in frame["seats"]]
            if frame["state"] in ("finished", "aborted"):
                state.final = frame
                if state.last_seq >= int(frame.get("seq") or 0):
                    return await self._finish(bot, state, frame)
                # the end is known but events before it are still on their way (a resume)
        elif kind == "snapshot":
            if not state.started and frame["seq"] > 0:
                # Joined a game in progress: a bot observes every event from the first,
                # so ask for the whole stream instead of starting from a summary.
                await self._resume(state, 0)
                return None
            await self._start(bot, state, frame["view"])
            state.last_seq = frame["seq"]
        elif kind == "event":
            seq = frame["seq"]
            if seq <= state.last_seq:
                return None  # already seen (a resume overlapping a live frame)
            if seq > state.last_seq + 1:
                # A gap: live events overtook a resume we asked for, or frames were lost.
                # Ignore it; the stream from our last number is (or is now) on its way.
                if not state.resyncing:
                    await self._resume(state, state.last_seq)
                return None
            state.resyncing = False
            await self._start(bot, state, {})
            state.last_seq = seq
            await bot.observe(frame["event"])
            if state.final is not None and seq >= int(state.final.get("seq") or 0):
                return await self._finish(bot, state, state.final)
        elif kind == "turn":
            if frame["seat"] == state.seat and state.resyncing:
                state.held_turn = frame
            elif frame["seat"] == state.seat:
                state.held_turn = None
                await self._start(bot, state, frame["view"])
                # The game asks again right after our own action (Kriegspiel's illegal
                # attempt): the same turn goes on, so no new pause.
                retry = frame.get("seq") == state.acked_seq
                state.turn = frame
                state.rejections = 0
                await self._decide(bot, state, pause=not retry)
        elif kind == "ack":
            state.pending = None
            state.turn = None
            state.acked_seq = int(frame.get("seq", -1))
        elif kind == "left":
            state.ended = True  # the server sent this bot away (a stand-in whose player is back)
        elif kind == "error":
            await self._refused(bot, state, frame)
        return None

    async def _resume(self, state: _Game, since: int) -> None:
        """Ask for this seat's stream after ``since``; turns until it arrives are stale."""
        resume: dict[str, Any] = {"room": state.room, "since": since}
        if self.target.ticket:
            resume["ticket"] = self.target.ticket
        await self._send(type="resume", **resume)
        state.resyncing = True

    async def _start(self, bot: Bot, state: _Game, view: dict[str, Any]) -> None:
        if state.started or state.seat is None:
            return
        state.started = True
        profiles: dict[int, dict[str, Any]] = {}
        for seat, player_id in enumerate(state.player_ids):
            if player_id is None or seat == state.seat:
                continue
            await self._send(type="profile", player=player_id)
            with contextlib.suppress(BotError):
                profiles[seat] = await self._reply(("profile",))
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

    async def _decide(self, bot: Bot, state: _Game, pause: bool = False) -> None:
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
        await self._send(type="act", room=state.room, action=action)

    async def pause(self, seconds: float) -> None:
        """The per-turn pause before a turn's first attempt (``think`` less the time the
        bot took to decide). Override it to wait differently."""
        await asyncio.sleep(seconds)

    async def _refused(self, bot: Bot, state: _Game, frame: dict[str, Any]) -> None:
        if state.pending is None:
            log.info("%s: server error %s: %s", self.name, frame.get("code"), frame.get("message"))
            return
        if frame["code"] == "rate_limited":  # not the bot's fault: send it again, slower
            await asyncio.sleep(1.0 / self._rate)
            await self._send(type="act", room=state.room, action=state.pending)
            return
        action, state.pending = state.pending, None
        await bot.rejected(action, frame["code"], frame["message"])
        # Only a refusal of the action itself deserves another try on this turn; anything
        # else (not our turn any more, the game ended) waits for the next turn frame.
        if frame["code"] in ("illegal", "malformed", "repeated") and state.turn is not None:
            state.rejections += 1
            await self._decide(bot, state)

    async def _finish(self, bot: Bot, state: _Game, frame: dict[str, Any]) -> GameResult | None:
        state.ended = True
        if state.seat is None or not state.started:
            return None
        outcome = frame.get("outcome") or {}
        ranks = list(outcome.get("ranks") or [1] * state.seats)
        reason = str(outcome.get("reason") or frame.get("reason") or frame["state"])
        result = GameResult(state.seat, ranks, reason, frame)
        await bot.end(result)
        with contextlib.suppress(ConnectionClosed):
            await self._send(type="leave", room=state.room)
        return result


async def play_remote(
    url: str,
    factory: Callable[[], Bot],
    *,
    name: str,
    target: Target,
    games: int = 1,
    token: str | None = None,
) -> list[GameResult]:
    """Play ``games`` games on the server at ``url`` with bots made by ``factory``."""
    player = RemotePlayer(url, factory, name=name, target=target, token=token)
    return await player.play(games)

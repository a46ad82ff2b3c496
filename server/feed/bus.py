"""The public feed: what a spectator may see, published for dashboards and collectors.

Rooms and the lobby call a :class:`Bus` through a few non-blocking hooks. The default
:class:`Bus` does nothing; :class:`MqttBus` (``umpire serve --mqtt mqtt://HOST:PORT/PREFIX``)
publishes to an MQTT broker with aiomqtt. Topics and payloads are in ``docs/mqtt.md``.

What goes out is decided here, from the room's settings, and only ever from spectator
projections (``event.view(None)``): never a truth, never a seat's projection.

- Private rooms publish nothing. Rooms with ``spectators="none"`` publish nothing either.
- ``spectators="after"``: no live events, only the result once the game is over.
- ``spectators="live"``: every spectator event, numbered like a spectator's stream
  (``room.viewer_seq(None)``), optionally delayed by N events or T seconds; the rest of a
  delayed stream goes out when the game ends, just before the result.

A broker that is down, slow or restarting never stalls a game: hooks only append to a
bounded buffer (the oldest message is dropped when it is full, counted in
:attr:`MqttBus.dropped`, with a warning in the log), and one task of its own publishes with
QoS 1, reconnecting with exponential backoff. The lobby listing is a single slot (the
newest listing wins, never dropped) and is published again after every reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import secrets
import ssl
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

import msgspec

from server.ratings.plan import change_infos
from server.wire.frames import LeaderboardFrame, RoomInfo

if TYPE_CHECKING:
    from server.games.base import Event
    from server.rooms.room import Room
    from server.store.contract import RatingChange

#: Reads one leaderboard (game, rule set, pool) as its frame: the server's, for the feed.
BoardReader = Callable[[str, str, str], Awaitable[LeaderboardFrame]]

log = logging.getLogger(__name__)


class ConnectionLossIsAWarning(logging.Filter):
    """Lower paho's "the socket failed" records from ERROR to WARNING.

    paho logs a broker that goes away (a reset, a timeout on the socket) at ERROR; the feed
    expects that and reconnects (its own warning says so), so for the server it is a
    warning. Every other paho error stays an error.
    """

    LOSS = ("failed to receive on socket", "timeout on socket")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.ERROR and str(record.msg).startswith(self.LOSS):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


#: The logger the feed's MQTT client writes to (paho's records through aiomqtt).
client_log = logging.getLogger(f"{__name__}.aiomqtt")
client_log.addFilter(ConnectionLossIsAWarning())

_encoder = msgspec.json.Encoder()
_TOPIC_WORD = re.compile(r"[^A-Za-z0-9_.-]+")


class Bus:
    """The feed interface; this base class is the no-op bus (the default).

    Every hook is synchronous, cheap and never raises: it is called from a room's task.
    """

    sent = 0
    dropped = 0

    @property
    def connected(self) -> bool:
        """Whether the bus is connected to its broker (always ``False`` for no-op)."""
        return False

    @property
    def queued(self) -> int:
        """Messages waiting to be published."""
        return 0

    async def start(self) -> None:
        """Start publishing (called by the server at start-up)."""

    async def close(self) -> None:
        """Flush what can be flushed quickly and stop (called at shutdown)."""

    def set_lobby(self, listing: Callable[[], list[RoomInfo]]) -> None:
        """Tell the bus how to read the public lobby listing."""

    def lobby_changed(self) -> None:
        """The lobby listing may have changed (a room was added, changed or removed)."""

    def room_events(self, room: Room, events: list[Event], first: int) -> None:
        """``events`` were just logged and broadcast in ``room``."""

    def result(self, room: Room) -> None:
        """``room``'s game finished or was aborted."""

    def standings(self, tournament: str, table: dict[str, Any]) -> None:
        """A tournament's current standings (any JSON-compatible table)."""

    def seeks(self, game: str, seeks: list[dict[str, Any]]) -> None:
        """The open seeks of ``game`` changed: here they are, oldest first (retained)."""

    def set_leaderboards(self, read: BoardReader) -> None:
        """Tell the bus how to read a leaderboard (the server's, with its minimum games)."""

    def rated(self, room: Room, changes: Sequence[RatingChange]) -> None:
        """``room``'s game was rated: ``changes`` are its stored rating changes (call it
        once the finish's transaction has returned them)."""


@dataclass(frozen=True, slots=True)
class MqttTarget:
    """Where to publish: parsed from ``mqtt://[USER[:PASS]@]HOST[:PORT][/PREFIX]``."""

    host: str
    port: int = 1883
    prefix: str = "umpire"
    username: str | None = None
    password: str | None = None
    tls: bool = False

    @classmethod
    def parse(cls, url: str) -> MqttTarget:
        """Read a broker URL (``mqtts://`` for TLS, default port 8883)."""
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise ValueError(f"not an MQTT URL: {url!r} (want mqtt://HOST:PORT/PREFIX)")
        tls = parts.scheme == "mqtts"
        prefix = parts.path.strip("/") or "umpire"
        if "+" in prefix or "#" in prefix:
            raise ValueError(f"the topic prefix may not contain + or #: {prefix!r}")
        return cls(
            host=parts.hostname,
            port=parts.port or (8883 if tls else 1883),
            prefix=prefix,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            tls=tls,
        )


@dataclass(frozen=True, slots=True)
class FeedDelay:
    """Hold each public event until ``moves`` newer events exist and ``seconds`` passed."""

    moves: int = 0
    seconds: float = 0.0

    @property
    def active(self) -> bool:
        """Whether any delay applies."""
        return self.moves > 0 or self.seconds > 0


@dataclass(slots=True)
class _Message:
    topic: str
    payload: bytes
    retain: bool


@dataclass(slots=True)
class _Held:
    due: float
    message: _Message


def spectator_events(events: Iterable[Event], first: int) -> list[tuple[int, dict[str, Any]]]:
    """``(seq, projection)`` of the events a spectator sees, numbered like a spectator's
    stream from ``first`` (the number of the first of them a spectator sees)."""
    public = [p for p in (e.view(None) for e in events) if p is not None]
    return [(first + i, p) for i, p in enumerate(public)]


def feed_policy(room: Room) -> str:
    """What the public feed shows of ``room``: ``live``, ``after`` (result only) or ``none``."""
    if not room.settings.public:
        return "none"
    return room.settings.spectators if room.settings.spectators in ("live", "after") else "none"


def topic_word(text: str) -> str:
    """``text`` made safe as one topic level (no ``/``, ``+`` or ``#``). A word that is
    already safe (every id: ``[A-Za-z0-9_-]``) is itself, also with a ``-`` at an end."""
    return _TOPIC_WORD.sub("-", text) or "-"


class MqttBus(Bus):
    """Publishes the public feed to an MQTT broker (QoS 1), from a task of its own."""

    def __init__(
        self,
        target: MqttTarget,
        *,
        delay: FeedDelay | None = None,
        max_buffer: int = 10_000,
        lobby_interval: float = 1.0,
        timeout: float = 5.0,
        backoff: tuple[float, float] = (0.5, 30.0),
        batch: int = 256,
    ) -> None:
        self.target = target
        self.delay = delay or FeedDelay()
        self.max_buffer = max_buffer
        self.lobby_interval = lobby_interval
        self.timeout = timeout
        self.backoff = backoff
        self.batch = batch
        self.sent = 0
        self.dropped = 0
        self.reconnects = 0
        self._buffer: deque[_Message] = deque()
        self._lobby: _Message | None = None  # the newest listing, not yet published
        self._lobby_last: _Message | None = None  # the newest listing published
        self._listing: Callable[[], list[RoomInfo]] | None = None
        self._lobby_timer: asyncio.TimerHandle | None = None
        self._held: dict[str, deque[_Held]] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._connected = False
        self._last_warning = 0.0
        self._warned_drops = 0
        self._identifier = f"umpire-{secrets.token_hex(4)}"
        self._boards: BoardReader | None = None
        self._dirty_boards: set[tuple[str, str, str]] = set()
        self._boards_task: asyncio.Task[None] | None = None

    # -- the hooks (called from rooms and the lobby; never block, never raise) -------------

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def queued(self) -> int:
        return len(self._buffer) + (self._lobby is not None)

    def topic(self, *levels: str) -> str:
        """The full topic name under this bus's prefix."""
        return "/".join((self.target.prefix, *levels))

    def set_lobby(self, listing: Callable[[], list[RoomInfo]]) -> None:
        self._listing = listing

    def lobby_changed(self) -> None:
        if self._listing is None or self._lobby_timer is not None or self._stop.is_set():
            return
        loop = asyncio.get_running_loop()
        self._lobby_timer = loop.call_later(self.lobby_interval, self._publish_lobby)

    def room_events(self, room: Room, events: list[Event], first: int) -> None:
        if feed_policy(room) != "live":
            return
        now = time.time()
        for seq, projection in spectator_events(events, first):
            payload = {"room": room.id, "seq": seq, "event": projection, "ts": round(now, 3)}
            message = _Message(self.topic("rooms", room.id, "events"), self._encode(payload), False)
            if self.delay.active:
                self._hold(room.id, message)
            else:
                self._push(message)

    def result(self, room: Room) -> None:
        self._release(room.id, flush=True)
        if feed_policy(room) == "none":
            return
        summary = msgspec.structs.asdict(room.summary())
        payload = {**summary, "finished": room.row.finished, "ts": round(time.time(), 3)}
        self._push(_Message(self.topic("results", room.id), self._encode(payload), True))
        self.lobby_changed()

    def standings(self, tournament: str, table: dict[str, Any]) -> None:
        payload = {"tournament": tournament, "standings": table, "ts": round(time.time(), 3)}
        topic = self.topic("tournaments", topic_word(tournament), "standings")
        self._push(_Message(topic, self._encode(payload), True))

    def seeks(self, game: str, seeks: list[dict[str, Any]]) -> None:
        payload = {"game": game, "seeks": seeks, "ts": round(time.time(), 3)}
        self._push(_Message(self.topic("seeks", topic_word(game)), self._encode(payload), True))

    def set_leaderboards(self, read: BoardReader) -> None:
        self._boards = read

    def rated(self, room: Room, changes: Sequence[RatingChange]) -> None:
        if not changes:
            return
        key = changes[0].key
        if feed_policy(room) != "none":
            payload = {
                "room": room.id,
                "game": key.game,
                "rules": key.rules,
                "changes": change_infos(changes),
                "ts": round(time.time(), 3),
            }
            self._push(_Message(self.topic("ratings", room.id), self._encode(payload), False))
        # leaderboards are public whatever the room: each one this game changed is read
        # again (at most once per lobby interval) and published retained
        self._dirty_boards.update((c.key.game, c.key.rules, c.pool) for c in changes)
        if self._boards is not None and self._boards_task is None and not self._stop.is_set():
            self._boards_task = asyncio.create_task(self._publish_boards(), name="mqtt-boards")

    async def _publish_boards(self) -> None:
        await asyncio.sleep(self.lobby_interval)  # the games finishing meanwhile: one read
        self._boards_task = None
        dirty, self._dirty_boards = sorted(self._dirty_boards), set()
        read = self._boards
        assert read is not None
        for game, rules, pool in dirty:
            try:
                frame = await read(game, rules, pool)
            except Exception:  # the feed must never break the server: log, skip this one
                log.warning("mqtt feed: cannot read the %s/%s/%s leaderboard", game, rules, pool)
                continue
            payload = {**msgspec.to_builtins(frame), "ts": round(time.time(), 3)}
            topic = self.topic("leaderboards", topic_word(game), topic_word(rules), pool)
            self._push(_Message(topic, self._encode(payload), True))

    # -- buffering and delay -------------------------------------------------------------

    @staticmethod
    def _encode(payload: dict[str, Any]) -> bytes:
        return _encoder.encode(payload)

    def _push(self, message: _Message) -> None:
        if len(self._buffer) >= self.max_buffer:
            self._buffer.popleft()
            self._dropped(1)
        self._buffer.append(message)
        self._wake.set()

    def _dropped(self, count: int) -> None:
        self.dropped += count
        now = time.monotonic()
        if now - self._last_warning >= 10.0:
            log.warning(
                "mqtt feed: buffer full (%d messages, broker %s); dropped %d so far",
                self.max_buffer,
                "connected" if self._connected else "unreachable",
                self.dropped,
            )
            self._last_warning = now

    def _hold(self, room_id: str, message: _Message) -> None:
        held = self._held.setdefault(room_id, deque())
        held.append(_Held(time.monotonic() + self.delay.seconds, message))
        self._release(room_id)

    def _release(self, room_id: str, flush: bool = False) -> None:
        """Publish the held events of ``room_id`` whose delay is over (all if ``flush``)."""
        timer = self._timers.pop(room_id, None)
        if timer is not None:
            timer.cancel()
        held = self._held.get(room_id)
        if held is None:
            return
        now = time.monotonic()
        while held and (flush or (len(held) > self.delay.moves and held[0].due <= now)):
            self._push(held.popleft().message)
        if not held:
            del self._held[room_id]
        elif self.delay.seconds and len(held) > self.delay.moves and not self._stop.is_set():
            wait = max(0.0, held[0].due - now)
            loop = asyncio.get_running_loop()
            self._timers[room_id] = loop.call_later(wait, self._release, room_id)

    def _publish_lobby(self) -> None:
        self._lobby_timer = None
        if self._listing is None:
            return
        try:
            rooms = self._listing()
        except Exception:  # a hook must never break a room: log and skip this listing
            log.warning("mqtt feed: cannot read the lobby listing", exc_info=True)
            return
        payload = {"rooms": rooms, "ts": round(time.time(), 3)}
        self._lobby = _Message(self.topic("lobby"), self._encode(payload), True)
        self._wake.set()

    # -- the publisher task --------------------------------------------------------------

    async def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="mqtt-feed")

    async def close(self, flush_timeout: float = 2.0) -> None:
        """Publish what is buffered for up to ``flush_timeout`` seconds, then stop."""
        boards, self._boards_task = self._boards_task, None
        if boards is not None:
            boards.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await boards
        if self._task is None:
            return
        if self._lobby_timer is not None:
            self._lobby_timer.cancel()
            self._publish_lobby()
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._held.clear()  # delayed events stay delayed: they are in the game's log
        self._stop.set()
        self._wake.set()
        task, self._task = self._task, None
        try:
            await asyncio.wait_for(asyncio.shield(task), flush_timeout)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if self.queued:
                log.warning("mqtt feed: %d messages not published at shutdown", self.queued)

    async def _run(self) -> None:
        import aiomqtt  # imported here: without --mqtt the dependency is never needed

        target = self.target
        delay = self.backoff[0]
        status = self.topic("status")
        while True:
            client = None
            try:
                client = aiomqtt.Client(
                    target.host,
                    target.port,
                    username=target.username,
                    password=target.password,
                    identifier=self._identifier,
                    keepalive=30,
                    timeout=self.timeout,
                    max_inflight_messages=self.batch,
                    will=aiomqtt.Will(status, b'{"online":false}', qos=1, retain=True),
                    tls_context=ssl.create_default_context() if target.tls else None,
                    logger=client_log,
                )
                client.pending_calls_threshold = self.batch + 16  # in flight on purpose
                async with client:
                    self._connected = True
                    delay = self.backoff[0]
                    log.info("mqtt feed: connected to %s:%d", target.host, target.port)
                    await client.publish(status, b'{"online":true}', qos=1, retain=True)
                    if self._lobby is None and self._lobby_last is not None:
                        self._lobby = self._lobby_last  # the broker may have lost it
                    await self._drain(client)
                    with contextlib.suppress(aiomqtt.MqttError):
                        await client.publish(status, b'{"online":false}', qos=1, retain=True)
                    return
            except aiomqtt.MqttError as exc:
                if self._connected:
                    log.warning("mqtt feed: lost the broker (%s); reconnecting", exc)
                elif self.reconnects == 0 or self.reconnects % 20 == 0:
                    log.warning(
                        "mqtt feed: cannot reach %s:%d (%s); retrying in %.1fs",
                        target.host,
                        target.port,
                        exc,
                        delay,
                    )
            finally:
                self._connected = False
                _retrieve(client)
            if self._stop.is_set():
                return
            self.reconnects += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), delay * random.uniform(0.8, 1.2))
            delay = min(delay * 2, self.backoff[1])

    async def _drain(self, client: Any) -> None:
        """Publish until stopped and empty; raise ``MqttError`` when the broker fails."""
        import aiomqtt

        while True:
            if self._lobby is not None:
                lobby = self._lobby
                self._lobby = None
                try:
                    await client.publish(
                        lobby.topic, lobby.payload, qos=1, retain=True, timeout=self.timeout
                    )
                except aiomqtt.MqttError:
                    if self._lobby is None:
                        self._lobby = lobby
                    raise
                self._lobby_last = lobby
                self.sent += 1
                continue
            if not self._buffer:
                if self._stop.is_set():
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            batch = [self._buffer.popleft() for _ in range(min(self.batch, len(self._buffer)))]
            failed, error = await self._publish_batch(client, batch)
            self.sent += len(batch) - len(failed)
            if failed:
                lost = 0
                for message in reversed(failed):  # back in front, in order
                    if len(self._buffer) < self.max_buffer:
                        self._buffer.appendleft(message)
                    else:
                        lost += 1
                if lost:
                    self._dropped(lost)
                raise error

    async def _publish_batch(
        self, client: Any, batch: list[_Message]
    ) -> tuple[list[_Message], Exception]:
        """Publish ``batch`` concurrently; return the messages not confirmed and why.

        A broker that goes away fails the whole batch at once rather than after the
        timeout (QoS 1 is at-least-once: a message may then be published twice)."""
        import aiomqtt

        gathered = asyncio.gather(
            *(
                client.publish(m.topic, m.payload, qos=1, retain=m.retain, timeout=self.timeout)
                for m in batch
            ),
            return_exceptions=True,
        )
        disconnected = getattr(client, "_disconnected", None)
        if isinstance(disconnected, asyncio.Future):
            await asyncio.wait({gathered, disconnected}, return_when=asyncio.FIRST_COMPLETED)
            if not gathered.done():
                gathered.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await gathered
                _retrieve(client)
                return batch, aiomqtt.MqttError("the broker went away")
        results = await gathered
        failed = [m for m, r in zip(batch, results, strict=True) if isinstance(r, BaseException)]
        error = next((r for r in results if isinstance(r, BaseException)), None)
        if error is None or isinstance(error, aiomqtt.MqttError):
            return failed, error or aiomqtt.MqttError("no error")
        return failed, aiomqtt.MqttError(f"publish failed: {error!r}")


def _retrieve(client: Any) -> None:
    """Mark the client's disconnection error as seen (else asyncio logs it at exit)."""
    disconnected = getattr(client, "_disconnected", None)
    if (
        isinstance(disconnected, asyncio.Future)
        and disconnected.done()
        and not disconnected.cancelled()
    ):
        disconnected.exception()


#: the shared no-op bus
NO_BUS = Bus()


def make_bus(url: str | None, delay: FeedDelay | None = None, **options: Any) -> Bus:
    """The bus for ``umpire serve --mqtt URL`` (the no-op bus without a URL)."""
    if not url:
        return Bus()
    return MqttBus(MqttTarget.parse(url), delay=delay, **options)


__all__ = ["NO_BUS", "Bus", "FeedDelay", "MqttBus", "MqttTarget", "make_bus", "spectator_events"]

"""The websocket application: parse, authenticate, rate-limit and route to rooms.

:class:`UmpireServer` owns the store, the identities, the lobby and the websocket server.
Each connection runs :meth:`UmpireServer._handler`: it decodes every frame into a typed
message (:mod:`server.wire.protocol`), answers lobby requests itself and hands room requests to
the room's actor. Any :class:`~server.errors.ClientError` becomes an ``error`` frame; too
much abuse closes the connection with 1008; a crash in a handler is logged and closes only
that connection with 1011, and the server keeps serving. :meth:`UmpireServer.close` is
idempotent: stop accepting, close connections with 1001, wait for the handlers, stop the
rooms, flush the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import ipaddress
import logging
import math
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import msgspec
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from server import __version__
from server.errors import ClientError, LeaseLost, NameTaken, StoreError
from server.feed.bus import NO_BUS, Bus
from server.games import ConfigError
from server.games import engine as find_engine
from server.ids import same_secret
from server.ladder.actor import LadderActor
from server.ladder.core import Limits as LadderLimits
from server.matchmaking.actor import Matchmaker
from server.net.web import Api, WebClient, chain
from server.ops import logs
from server.ops.metrics import Metrics
from server.players.accounts import account_key
from server.players.identity import Identities, Player, Signed, house_id
from server.players.throttle import Buckets, Rate
from server.ratings import board
from server.roomcore import messages as m
from server.roomcore.rating import rated_game
from server.rooms.connection import Client
from server.rooms.house import HOUSE_ADDRESS, HOUSE_HEADER, Catalog, HouseBots
from server.rooms.lobby import Lobby
from server.rooms.room import Room, Settings, Timing
from server.store import signing, stats
from server.store.contract import Store, open_store
from server.store.signing import Signer
from server.store.sqlite import SqliteStore
from server.tournaments.core import Spec
from server.tournaments.director import Director
from server.wire import catalogue, frames
from server.wire.limits import Idle, Strikes, TokenBucket
from server.wire.protocol import (
    AUTOPILOT,
    PROTOCOL_VERSION,
    Act,
    AddBot,
    BotToken,
    CancelSeek,
    Catalogue,
    ChangePassword,
    CreateBot,
    CreateRoom,
    CreateTournament,
    DeclineRematch,
    GetTournament,
    Hello,
    Hint,
    Inbound,
    Join,
    JoinTournament,
    LadderMessage,
    Leaderboard,
    Leave,
    LeaveTournament,
    ListBots,
    ListRooms,
    ListSeeks,
    ListTournaments,
    Login,
    Logout,
    Ping,
    Profile,
    Register,
    Rematch,
    Resume,
    Say,
    Seek,
    Start,
    StartTournament,
    TakeSeek,
    Watch,
    decode,
    ref_of,
)

if TYPE_CHECKING:
    from server.cluster.nodes import Cluster

log = logging.getLogger(__name__)

#: the rate-limit tokens a ``seeks`` request costs (its reply may list hundreds of seeks)
SEEKS_COST = 5

#: The messages of accounts and bot accounts (``UmpireServer._account``).
ACCOUNT_MESSAGES = (Register, Logout, ChangePassword, CreateBot, ListBots, BotToken)

#: The messages of hosted tournaments (``UmpireServer._tournament``).
TOURNAMENT_MESSAGES = (
    CreateTournament,
    JoinTournament,
    LeaveTournament,
    StartTournament,
    ListTournaments,
    GetTournament,
)

#: Seconds between two pushes of one tournament's frame (changes in between coalesce;
#: its end is pushed at once)
TOURNAMENT_PUSH_INTERVAL = 0.5

#: Hints one connection may have in flight; one more is told ``busy``.
HINTS_PER_CONNECTION = 2


@dataclass(frozen=True, slots=True)
class Limits:
    """Connection limits. Each is an ``umpire serve`` flag (see ``umpire serve --help``)
    except ``abuse_decay``, ``max_backlog`` and ``close_timeout``: their defaults fit any
    deployment (the flags on rates and strikes already bound abuse), so only tests change
    them, to reach the limit quickly."""

    max_frame: int = 16 * 1024  # bytes per inbound frame (bigger: closed with 1009)
    rate: float = 20.0  # messages per second, sustained
    burst: float = 40.0  # messages in a burst
    max_connections_per_address: int = 64
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    idle_timeout: float | None = 600.0  # seconds without any message: closed with 1000
    abuse_limit: float = 10.0  # outstanding abuse strikes before closing with 1008
    abuse_decay: float = 0.1  # strikes forgiven per second
    max_backlog: int = 1 << 20  # unsent bytes before a slow reader is closed with 1008
    close_timeout: float = 2.0  # seconds a closing peer has to answer before the TCP drop
    max_rooms: int = 10_000
    max_rooms_per_player: int = 20
    #: waiting or playing rooms made from one address (an IPv6 address's /64)
    max_rooms_per_address: int = 50
    #: waiting rooms on this server (empty ones expire: ``Timing.empty_room``)
    max_waiting_rooms: int = 2_000
    #: new guests (``hello`` without a token) from one address: a burst, then one per
    #: ``every`` seconds
    new_guests: Rate = field(default_factory=lambda: Rate(burst=30, every=10.0))
    #: proxies whose ``X-Forwarded-For`` header names the client (``--trusted-proxy``)
    trusted_proxies: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything ``umpire serve`` needs."""

    host: str = "127.0.0.1"
    port: int = 8765
    db: str = "umpire.db"
    #: the key file finished games are signed with (server.store.signing; "": beside a
    #: SQLite store's file; a PostgreSQL store without one signs with a key of this
    #: process only, and says so)
    signing_key: str = ""
    synchronous: str = "FULL"
    limits: Limits = field(default_factory=Limits)
    timing: Timing = field(default_factory=Timing)
    house_procs: int = 1  # runner processes for the house bots (server.rooms.house)
    allow_origins: tuple[str, ...] = ()  # server.net.web: origins besides the server's own
    # several nodes on one PostgreSQL database (server.cluster.nodes; docs/scale-out.md)
    node_name: str = ""  # this node's name in logs and the lease table (default: host name)
    advertise: str = ""  # the URL other nodes reach this one at (default: ws://host:port)
    lease_ttl: float = 5.0  # seconds a dead node keeps its rooms before others take them
    lease_beat: float = 0.0  # seconds between a node's heartbeats (0: a third of lease_ttl)
    # start the house runners with the server, loading the hint advisor's tables at once
    # (``umpire serve`` does; the tests' servers start a runner at its first bot or hint)
    warm_hints: bool = False
    #: an account's login session expires after this many days unused
    #: (``--session-idle-days``; docs/accounts.md)
    session_idle_days: float = 30.0
    #: the fewest rated games a rating needs to appear on a leaderboard (server.ratings)
    leaderboard_min_games: int = board.MIN_GAMES
    #: the bot ladder's limits (server.ladder.core; docs/bots.md, "The ladder") and
    #: whether the house bots are its permanent members (``--no-ladder-house``)
    ladder: LadderLimits = field(default_factory=LadderLimits)
    ladder_house: bool = True
    #: seconds a player's seeks outlive its last connection (docs/matchmaking.md)
    seek_grace: float = 60.0
    #: seconds between two reads of the shared seeks by a cluster's node
    seek_poll: float = 0.5
    #: seconds after which a seek claimed for a room that has no row is opened again
    seek_orphan_after: float = 30.0
    #: the shortest ``fill_after`` a seek may ask (tests lower it)
    seek_min_fill: float = 5.0


class UmpireServer:
    """The game server. ``await start()``, then ``await close()`` (or use ``async with``)."""

    def __init__(
        self,
        config: ServerConfig,
        store: Store | None = None,
        bus: Bus | None = None,
        *,
        catalog: Catalog | None = None,
        advisor: str | None = None,
    ) -> None:
        """``catalog`` (the house bots that may be started) and ``advisor`` (the ``hint``
        advice, ``"module:function"``, which the house runners import and run) come from
        the composition root, :func:`server.root.build_server`; without them the server
        offers no house bots and no hints."""
        self.config = config
        self.limits = config.limits
        self.store = store or open_store(config.db, synchronous=config.synchronous)
        self.identities = Identities(
            self.store, session_idle=config.session_idle_days * 86400, reserved=self._reserved
        )
        #: the public feed (server.feed.bus; ``umpire serve --mqtt``) and the metrics
        #: (server.ops.metrics)
        self.bus = bus or NO_BUS
        self.metrics = Metrics(self)
        self.web = WebClient(config.allow_origins)
        #: signs finished games' final hashes (read from the key file on start)
        self.signer: Signer | None = None
        # GET /api/... (ratings, signing keys)
        self.api = Api(self.leaderboard, self.profile_by_name, self.signing_keys)
        self.bus.set_leaderboards(self._feed_board)
        self.store.on_commit = self.metrics.store_commit
        self.house = HouseBots(
            procs=config.house_procs, catalog=catalog, advisor=advisor, warm=config.warm_hints
        )
        self.lobby = Lobby(
            self.store,
            self.identities,
            config.timing,
            max_rooms=config.limits.max_rooms,
            max_rooms_per_player=config.limits.max_rooms_per_player,
            max_rooms_per_address=config.limits.max_rooms_per_address,
            max_waiting_rooms=config.limits.max_waiting_rooms,
            bus=self.bus,
        )
        self.lobby.launcher = self.house.launch
        self.lobby.notify = self.push
        self.lobby.house_plays = self.house.accepts
        #: seeks and their pairing (server.matchmaking; docs/matchmaking.md)
        self.matchmaker = Matchmaker(
            self.store,
            self.lobby,
            self.identities,
            house_kinds=self.house.available,
            push=self.push,
            live=lambda player_id: player_id in self._live,
            bus=self.bus,
            poll=config.seek_poll if self.store.shared else None,
            grace=config.seek_grace,
            min_fill_after=config.seek_min_fill,
            orphan_after=config.seek_orphan_after,
        )
        self.lobby.house_version = self.house.version
        #: hosted tournaments (server.tournaments), and the connections following each
        self.tournaments = Director(self.store, self.lobby)
        self.tournaments.changed = self._tournament_changed
        self.tournaments.online = lambda player_id: bool(self._live.get(player_id))
        self._following: dict[str, set[Client]] = {}
        #: the latest unsent change of each tournament, the pending push's timer, and
        #: when each was last pushed (pushes are throttled: TOURNAMENT_PUSH_INTERVAL)
        self._tournament_latest: dict[str, frames.TournamentInfo] = {}
        self._tournament_timers: dict[str, asyncio.TimerHandle] = {}
        self._tournament_pushed: dict[str, float] = {}
        self.catalogue = catalogue.Published(catalog, advisor=advisor is not None, rated=rated_game)
        self.lobby.advisor = None if advisor is None else self.house.advise
        #: the ranked bot ladder (server.ladder)
        self.ladder = LadderActor(
            self.lobby, self.store, config.ladder, house_version=self.house.version
        )
        #: with a PostgreSQL store: this node's part in a cluster (made by ``start``)
        self.cluster: Cluster | None = None
        self._server: Server | None = None
        self._per_address: dict[str, int] = {}
        #: each connection's identity (its token's hash and kind), and the live
        #: connections of each player (``logout`` everywhere closes them)
        self._signed: dict[Client, Signed] = {}
        self._live: dict[str, set[Client]] = {}
        #: token hash -> the live connections that said hello with it (a logout closes
        #: every one of them: the token is revoked)
        self._by_token: dict[str, set[Client]] = {}
        self._closing: asyncio.Task[None] | None = None
        #: new guests by address key (``Limits.new_guests``)
        self._new_guests = Buckets(config.limits.new_guests, 100_000)

    async def __aenter__(self) -> UmpireServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def port(self) -> int:
        """The port actually bound (useful with port 0)."""
        assert self._server is not None
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    async def start(self) -> None:
        """Open the store (refusing one it cannot write), restore unfinished rooms,
        start listening."""
        await self.store.open()
        await self.store.check_writable()
        self.signer = await self._open_signer()
        self.lobby.signer = self.signer
        await self.bus.start()
        self.metrics.start()
        if self.store.shared:
            from server.cluster.nodes import Cluster  # needs asyncpg: only with PostgreSQL
            from server.store.pg import PgStore

            assert isinstance(self.store, PgStore)
            name = self.config.node_name or socket.gethostname()
            cluster = Cluster(
                self.store,
                self.lobby,
                name=name,
                ttl=self.config.lease_ttl,
                beat=self.config.lease_beat,
            )
            cluster.on_lost = self._stop_house_bots
            await cluster.start()
            self.cluster = cluster
        await self.lobby.restore()
        limits = self.limits
        self._server = await serve(
            self._handler,
            self.config.host,
            self.config.port,
            max_size=limits.max_frame,
            ping_interval=limits.ping_interval,
            ping_timeout=limits.ping_timeout,
            compression=None,
            max_queue=8,
            close_timeout=limits.close_timeout,
            process_request=chain(
                self.metrics.process_request, self.api.process_request, self.web.process_request
            ),
        )
        log.info("umpire %s listening on ws://%s:%d", __version__, self.config.host, self.port)
        host = self.config.host
        if host in ("", "0.0.0.0", "::", "localhost"):
            host = "127.0.0.1"
        self.house.url = f"ws://{'[' + host + ']' if ':' in host else host}:{self.port}"
        self.house.start()
        if self.cluster is not None:
            await self.cluster.advertise(self.config.advertise or self.house.url)
        await self.lobby.relaunch_bots()
        await self.matchmaker.start()
        if self.cluster is not None:  # (docs/tournaments.md, "Several nodes")
            self.tournaments.node = self.cluster.node
            self.tournaments.alive = self.cluster.leases.alive
            self.tournaments.online = None  # (its entrants may be on other nodes)
        await self.tournaments.start()
        await self.ladder.restore()
        if self.config.ladder_house:
            await self._ladder_house()

    async def _ladder_house(self) -> None:
        """The house bots join the ladder of each rated game's default rule set."""
        from server.ladder.actor import default_rules
        from server.ratings.rules import RATED_GAMES

        for game in sorted(RATED_GAMES):
            for kind in self.house.available(game):
                # (its player row is made when its first room opens: nothing is written
                # at the start, so nodes starting together never race to make it)
                limit = self.config.ladder.per_house
                await self.ladder.add_house(kind, game, default_rules(game), limit, house_id(kind))

    def _stop_house_bots(self, room_id: str) -> None:
        """Stop this node's house bot clients of a room that moved to another node."""
        for room, seat in self.house.playing():
            if room == room_id:
                self.house.stop(room, seat)

    async def close(self) -> None:
        """Shut down gracefully; safe to call more than once."""
        if self._closing is None:
            self._closing = asyncio.create_task(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        for room in list(self.lobby.rooms.values()):
            if room.paused:  # (its connections wait for answers it can never store)
                await room.stop()
        self.ladder.close()
        await self.matchmaker.close()  # (before the connections close: seeks stay)
        await self.tournaments.close()
        await self.house.close()
        if self._server is not None:
            self._server.close()  # 1001 to every connection, then waits for handlers
            await self._server.wait_closed()
        if self.cluster is not None:
            await self.cluster.stop()  # take no more rooms over while closing
        await self.lobby.close()
        if self.cluster is not None:
            await self.cluster.close()
        await self.metrics.close()
        await self.bus.close()
        await self.store.close()
        if self._server is not None:  # (a start that failed has its own one-line say)
            log.info("umpire stopped")

    # -- connections --------------------------------------------------------------------

    async def _handler(self, ws: ServerConnection) -> None:
        remote = ws.remote_address
        address = str(remote[0]) if remote else "?"
        if address in self.limits.trusted_proxies and ws.request is not None:
            address = forwarded_for(ws.request.headers.get("X-Forwarded-For"), address)
        logs.bind(conn=logs.new_conn_id(), room=None)
        house = ws.request is not None and same_secret(
            ws.request.headers.get(HOUSE_HEADER), self.house.secret
        )
        if house:
            address = HOUSE_ADDRESS  # the server's own bots are not counted against loopback
        elif self.cluster is not None and self.cluster.is_peer(ws.request):
            # a client relayed by another node (server.cluster.nodes)
            address = self.cluster.PEER_ADDRESS
        elif self._per_address.get(address, 0) >= self.limits.max_connections_per_address:
            frame = frames.error(
                "too_many_connections",
                f"at most {self.limits.max_connections_per_address} connections per address",
            )
            await ws.send(frames.encode(frame), text=True)
            await ws.close(1008, "too many connections")
            return
        self._per_address[address] = self._per_address.get(address, 0) + 1
        client = Client(ws, address, self.limits.max_backlog)
        try:
            await self._serve(client, ws)
        except ConnectionClosed:
            pass
        except Exception:
            log.exception("connection %r: handler crashed", client)
            frame = frames.error("internal", "the server failed on your message; reconnect")
            with contextlib.suppress(ConnectionClosed):
                await ws.send(frames.encode(frame), text=True)
            self._release(client)
            await ws.close(1011, "internal error")
        finally:
            self._release(client)
            self._unbind(client)
            self.ladder.drop(client)
            self.matchmaker.forget(client)
            for task in list(client.hints):
                task.cancel()  # nobody to answer: the advisor's late answer is dropped
            for room in list(client.rooms):
                room.detach(client)
            for following in self._following.values():
                following.discard(client)
            if self.cluster is not None:
                await self.cluster.forget(client)

    def _release(self, client: Client) -> None:
        """Give the client's per-address slot back (once): as soon as the server decides
        to close, not when the peer finally completes the closing handshake."""
        if client.released:
            return
        client.released = True
        address = client.address
        left = self._per_address[address] - 1
        if left:
            self._per_address[address] = left
        else:
            del self._per_address[address]

    async def _serve(self, client: Client, ws: ServerConnection) -> None:
        limits = self.limits
        bucket = TokenBucket(limits.rate, limits.burst)
        strikes = Strikes(limits.abuse_limit, limits.abuse_decay)
        idle = None
        timer = None
        if limits.idle_timeout:
            idle = Idle(limits.idle_timeout, time.monotonic())
            timer = _IdleTimer(idle, lambda: self._idle(client))
        bound: str | None = None  # the room id bound for the logs (server.ops.logs)
        limited = _Limited()
        recv = ws.recv
        try:
            while True:
                frame = await recv()
                now = time.monotonic()
                if idle is not None:
                    idle.seen(now)
                message: Inbound | None = None
                try:
                    if not bucket.take(now):
                        if now < limited.until:  # told to wait, and it did not
                            raise ClientError(
                                "rate_limited",
                                f"more than {limits.rate:g} messages per second, and "
                                "again before retry_after: message dropped",
                                abuse=True,
                            )
                        self._rate_limited(client, limited, bucket.wait(now), now, frame)
                        continue
                    message = decode(frame)
                    if type(message) is Act:
                        limited.rooms.discard(message.room)  # (it acted again by itself)
                    if type(message) is ListSeeks:  # (a long reply: it costs more)
                        bucket.spend(SEEKS_COST - 1)
                    room_id = getattr(message, "room", None)
                    if room_id != bound:
                        logs.bind(room=room_id)
                        bound = room_id
                    if self.cluster is not None and await self.cluster.route(
                        client, message, frame
                    ):
                        continue  # relayed to the room's node, which answers the client
                    if type(message) is Act:  # the hot path: the room itself sends the ack
                        await self._act(client, message)
                        continue
                    reply = await self._dispatch(client, message)
                    if reply:
                        client.send_frame(frames.with_ref(reply, message.ref))
                except (ClientError, StoreError) as failed:
                    exc = failed if isinstance(failed, ClientError) else _unavailable(failed)
                    ref = message.ref if message is not None else ref_of(frame)
                    room = getattr(message, "room", None)
                    client.send_frame(
                        frames.error(
                            exc.code, exc.message, ref=ref, room=room, retry_after=exc.retry_after
                        )
                    )
                    if exc.abuse and strikes.hit(now):
                        client.closing = True
                        self._release(client)  # the slot is free at once
                        await _close_discarding(ws, 1008, "too many bad messages")
                        return
        finally:
            if timer is not None:
                timer.cancel()
            if limited.handle is not None:
                limited.handle.cancel()

    def _rate_limited(
        self, client: Client, limited: _Limited, wait: float, now: float, frame: str | bytes
    ) -> None:
        """The first message over the rate limit: drop it and say when the next may come
        (``retry_after``); that one is no abuse, but any other before then is. When the
        dropped message was an ``act``, its room sends the ``turn`` again once the window
        is open (unless the client acted there again by itself meanwhile), so that a bot
        that acts only on a ``turn`` never stalls (docs/protocol.md, "Limits")."""
        wait = math.ceil(wait * 1000) / 1000
        limited.until = now + wait
        room = None
        ref = ref_of(frame)
        with contextlib.suppress(ClientError):  # (decode raises nothing else)
            message = decode(frame)
            ref = message.ref
            if type(message) is Act:
                room = message.room
        client.send_frame(
            frames.error(
                "rate_limited",
                f"more than {self.limits.rate:g} messages per second: message dropped; "
                f"send again in {wait:g} s",
                ref=ref,
                room=room,
                retry_after=wait,
            )
        )
        if room is None or room not in {r.id for r in client.rooms}:
            return
        limited.rooms.add(room)
        if limited.handle is None:
            loop = asyncio.get_running_loop()
            limited.handle = loop.call_later(wait, self._turn_again, client, limited)

    def _turn_again(self, client: Client, limited: _Limited) -> None:
        """The rate limit's window is open again: the rooms whose ``act`` was dropped send
        the client its ``turn`` again."""
        limited.handle = None
        rooms = {room.id: room for room in client.rooms}
        for room_id in limited.rooms:
            room = rooms.get(room_id)
            if room is not None:
                room.post(m.TurnAgain(client))
        limited.rooms.clear()

    def _idle(self, client: Client) -> None:
        self._release(client)
        client.close(1000, "idle timeout")  # its ``recv`` then ends the handler

    # -- routing ------------------------------------------------------------------------

    async def _dispatch(self, client: Client, message: Inbound) -> frames.Reply | None:
        if isinstance(message, Hello):
            welcome = await self._hello(client, message)
            if self.cluster is not None:
                await self.cluster.hello(client, message, welcome)
            return welcome
        if isinstance(message, Catalogue):
            return self._catalogue(message)
        if isinstance(message, Login):
            return await self._login(client, message)
        player = client.player
        if player is None:
            raise ClientError("hello_required", "say hello first", abuse=True)
        if isinstance(message, ACCOUNT_MESSAGES):
            return await self._account(client, message)
        lobby = self.lobby
        if isinstance(message, Act):
            await self._act(client, message)
            return None
        if isinstance(message, CreateRoom):
            return await self._create(client, message)
        if isinstance(message, ListRooms):
            if message.game is not None:
                try:
                    find_engine(message.game)
                except ConfigError as exc:
                    raise ClientError("bad_options", str(exc)) from None
            rooms = lobby.listing(message.game)
            page = rooms[message.offset : message.offset + message.limit]
            return frames.RoomsFrame(rooms=page, total=len(rooms), offset=message.offset)
        if isinstance(message, Join):
            room = await lobby.find(player, message.room, message.invite, message.ticket)
            return await room.join(client, message.seat, message.ticket)
        if isinstance(message, Watch):
            room = await lobby.find(player, message.room, message.invite)
            return await room.watch(client)
        if isinstance(message, Resume):
            room = await lobby.find(player, message.room, message.invite, message.ticket)
            return await room.resume(client, message.since, message.ticket)
        if isinstance(message, Leave):
            room = self._attached(client, message.room)
            return await room.leave(client)
        if isinstance(message, Start):
            room = self._attached(client, message.room)
            return await room.start(client)
        if isinstance(message, AddBot):
            room = self._attached(client, message.room)
            offered = self.house.available(room.engine.name)
            if message.bot != AUTOPILOT and not self.house.accepts(room.engine.name, message.bot):
                names = ", ".join([AUTOPILOT, *offered])
                raise ClientError(
                    "unsupported", f"no house bot {message.bot!r} for {room.engine.name}: {names}"
                )
            bot = await self.identities.house_bot(message.bot)
            return await room.add_bot(client, message.seat, bot, message.bot)
        if isinstance(message, Say):
            room = self._attached(client, message.room)
            return await room.say(client, message.text)
        if isinstance(message, Profile | Leaderboard):
            return await self._ratings_reply(message, player.id)
        if isinstance(message, Seek | CancelSeek | ListSeeks | TakeSeek):
            return await self._seeks(client, message)
        if isinstance(message, Rematch | DeclineRematch):
            room = await lobby.find(player, message.room, None, conn=client)
            if isinstance(message, Rematch):
                return await room.rematch(client)
            return await room.decline_rematch(client)
        if isinstance(message, TOURNAMENT_MESSAGES):
            return await self._tournament(client, player, message)
        if isinstance(message, Ping):
            return frames.PongFrame()
        if isinstance(message, LadderMessage):
            return await self._ladder(client, message)
        if isinstance(message, Hint):
            room = await lobby.find(player, message.room, None, conn=client)
            self._hint(client, room, message)
            return None  # answered when the advisor has
        raise ClientError("unknown_type", f"{type(message).__name__} is not handled", abuse=True)

    async def _ladder(self, client: Client, message: LadderMessage) -> frames.Reply:
        player = client.player
        assert player is not None
        row = await self.store.player(player.id)
        owner = row.owner if row is not None and row.owner else player.id
        return await self.ladder.join(
            client,
            player,
            owner,
            message.game,
            message.rules,
            message.max_concurrent,
            message.seats,
        )

    def _hint(self, client: Client, room: Room, message: Hint) -> None:
        """Ask ``room`` for a hint and send the answer (or the error) when it comes: the
        connection goes on meanwhile, and a connection that closes drops its hints."""
        game = room.core.engine.name
        if not self.catalogue.hints(game):
            raise ClientError("unsupported", f"this server gives no hints for {game}")
        if len(client.hints) >= HINTS_PER_CONNECTION:
            raise ClientError("busy", f"at most {HINTS_PER_CONNECTION} hints at a time")
        options = {
            "bluff": message.bluff,
            "reliability": message.reliability,
            "level": message.level,
            "lang": message.lang,
        }

        async def answer() -> None:
            try:
                hint = msgspec.convert(await room.hint(client, options), frames.HintFrame)
            except msgspec.ValidationError as exc:
                log.warning("connection %r: the advisor's answer is not a hint: %s", client, exc)
                frame = frames.error("unsupported", "no hint here", ref=message.ref)
                client.send_frame(frame)
            except ClientError as exc:
                frame = frames.error(exc.code, exc.message, ref=message.ref, room=message.room)
                client.send_frame(frame)
            except Exception:
                log.exception("connection %r: a hint failed", client)
                client.send_frame(frames.error("internal", "the server failed on your hint"))
                client.close(1011, "internal error")
            else:
                client.send_frame(frames.with_ref(hint, message.ref))

        task = asyncio.create_task(answer(), name=f"hint-{room.id}")
        client.hints.add(task)
        task.add_done_callback(client.hints.discard)

    async def _act(self, client: Client, message: Act) -> None:
        """An action for the sender's seat; the room sends the ``ack`` once it is durable."""
        player = client.player
        if player is None:
            raise ClientError("hello_required", "say hello first", abuse=True)
        room = self.lobby.ready(player, message.room, client)
        if room is None:
            room = await self.lobby.find(player, message.room, None, conn=client)
        started = time.perf_counter()
        try:
            await room.act(client, message.action, message.seat, message.ref)
        except ClientError:
            self.metrics.action(time.perf_counter() - started, accepted=False)
            raise
        self.metrics.action(time.perf_counter() - started, accepted=True)

    def _attached(self, client: Client, room_id: str) -> Room:
        """A room the client is attached to, seated in or hosts."""
        room = self.lobby.rooms.get(room_id)
        player = client.player
        if room is not None and (
            client in room.viewers
            or room.seat_of(player) is not None
            or (player is not None and room.host == player.id)
        ):
            return room
        raise ClientError("no_such_room", f"you are not in a room {room_id!r}")

    async def _hello(self, client: Client, message: Hello) -> frames.WelcomeFrame:
        if client.player is not None:
            raise ClientError("already_hello", "this connection already said hello")
        if message.v != PROTOCOL_VERSION:
            raise ClientError(
                "version", f"protocol version {message.v} is not supported; use {PROTOCOL_VERSION}"
            )
        if client.address == HOUSE_ADDRESS and message.bot and message.token is None:
            # A house bot (the header proved it): its durable identity, no token at all.
            name = message.name or ""
            if not self.house.known(name):
                raise ClientError("bad_name", f"no house bot {name!r}")
            signed = Signed(await self.identities.house_bot(name), "")
        else:
            if message.token is None:
                self._new_guest(client.address)
            signed = await self.identities.hello(
                message.name, message.token, message.bot, message.bot_version
            )
        self._bind(client, signed)
        if signed.player.kind == "guest":
            self._rebind_all(signed.player)  # (a guest's hello may rename it)
        return self._welcome(signed)

    async def _open_signer(self) -> Signer:
        """The key finished games are signed with: ``--signing-key``, else the file beside
        a SQLite store (both made on first use); its public half kept in the store."""
        path: str | None = self.config.signing_key
        if not path and isinstance(self.store, SqliteStore):
            path = signing.default_path(self.store.path)
        if not path:
            log.warning(
                "no --signing-key: games are signed with a key of this process only; "
                "give every node the one key file (docs/server.md, the signing key)"
            )
        return await signing.open_signer(self.store, path or None)

    async def signing_keys(self) -> frames.SigningKeysFrame:
        """Every key games were signed with (``GET /api/signing-keys``), this one first."""
        current = self.signer.key_id if self.signer is not None else None
        stored = await self.store.signing_keys()
        keys = [
            frames.SigningKeyInfo(id=kid, public=public, current=kid == current)
            for kid, public in stored.items()
        ]
        keys.sort(key=lambda k: not k.current)
        return frames.SigningKeysFrame(keys=keys)

    def _new_guest(self, address: str) -> None:
        """Count a new guest from ``address``; refuse it past ``Limits.new_guests``
        (throwaway identities must not fill the server: docs/protocol.md, "Limits")."""
        if address == self.cluster_peer_address:
            return  # (counted on the node the client is connected to)
        key = address_key(address)
        now = time.monotonic()
        level = self._new_guests.level(key, now)
        if level < 1:
            wait = math.ceil((1 - level) * self.limits.new_guests.every * 1000) / 1000
            raise ClientError(
                "rate_limited",
                "too many new guests from your address: say hello with your token, or "
                f"try again in {wait:g} s",
                retry_after=wait,
            )
        self._new_guests.take(key, now)

    @property
    def cluster_peer_address(self) -> str | None:
        """The address a client relayed by another node has here (none without one)."""
        return None if self.cluster is None else self.cluster.PEER_ADDRESS

    def _welcome(self, signed: Signed) -> frames.WelcomeFrame:
        """The ``welcome`` of a connection that is now ``signed.player``."""
        player = signed.player
        limits = self.limits
        return frames.WelcomeFrame(
            v=PROTOCOL_VERSION,
            server=f"umpire {__version__}",
            player=player.info(),
            token=signed.token,
            seats=self.lobby.seats_of(player),
            limits=frames.LimitsInfo(
                max_frame=limits.max_frame,
                rate=limits.rate,
                burst=limits.burst,
                idle_timeout=limits.idle_timeout,
            ),
            signing_key=(
                None
                if self.signer is None
                else frames.SigningKeyInfo(id=self.signer.key_id, public=self.signer.public)
            ),
        )

    # -- accounts (server.players.identity; docs/accounts.md) -----------------------------

    def _reserved(self, key: str) -> bool:
        """Whether an account name's key is reserved: the house bots' names."""
        return key == AUTOPILOT or self.house.known(key)

    def _bind(self, client: Client, signed: Signed) -> None:
        """The connection is now ``signed.player``."""
        self._unbind(client)
        client.player = signed.player
        self._signed[client] = signed
        self._live.setdefault(signed.player.id, set()).add(client)
        if signed.token_hash:
            self._by_token.setdefault(signed.token_hash, set()).add(client)
        self.matchmaker.back(signed.player.id)
        if client.address not in (HOUSE_ADDRESS, self.cluster_peer_address):
            # (rooms rebuilt after a restart count against the address their host is at)
            self.lobby.returns(signed.player.id, address_key(client.address))

    def _rebind_all(self, player: Player) -> None:
        """Every live connection of ``player`` on this node is now ``player`` as it is
        (registered, renamed), each with its own ``bot_version``: no connection goes on
        with a stale kind or name (a rated room would refuse it, a game start record it
        as a guest)."""
        for other in self._live.get(player.id, ()):
            signed = self._signed[other]
            if signed.player == dataclasses.replace(player, version=signed.player.version):
                continue
            now = dataclasses.replace(player, version=signed.player.version)
            other.player = now
            self._signed[other] = dataclasses.replace(signed, player=now)

    def _unbind(self, client: Client) -> None:
        """Forget the connection's identity (it closed, or it becomes another player)."""
        signed = self._signed.pop(client, None)
        if signed is None:
            return
        live = self._live.get(signed.player.id)
        if live is not None:
            live.discard(client)
            if not live:
                del self._live[signed.player.id]
                self.matchmaker.left(signed.player.id)
        same = self._by_token.get(signed.token_hash)
        if same is not None:
            same.discard(client)
            if not same:
                del self._by_token[signed.token_hash]

    async def _seeks(
        self, client: Client, message: Seek | CancelSeek | ListSeeks | TakeSeek
    ) -> frames.Reply:
        """The seek messages (server.matchmaking.actor; docs/matchmaking.md)."""
        player = client.player
        assert player is not None
        matchmaker = self.matchmaker
        if isinstance(message, Seek):
            return await matchmaker.seek(player, message)
        if isinstance(message, TakeSeek):
            return await matchmaker.take(player, message.seek)
        if isinstance(message, CancelSeek):
            return await matchmaker.cancel(player, message.seek)
        return await matchmaker.watch(client, message.game, message.watch)

    # -- tournaments (server.tournaments.director) ----------------------------------------

    async def _tournament(
        self, client: Client, player: Player, message: Inbound
    ) -> frames.TournamentFrame | frames.TournamentsFrame:
        director = self.tournaments
        if isinstance(message, ListTournaments):
            return frames.TournamentsFrame(tournaments=await director.listing())
        if isinstance(message, CreateTournament):
            spec = Spec(
                game=message.game,
                options=dict(message.options),
                format=message.format,
                rounds=message.rounds,
                duration=message.duration,
                rated=message.rated,
                starts_at=message.starts_at,
                name=message.name,
            )
            info = await director.create(player, spec)
            self._follow(client, info.id)
        elif isinstance(message, JoinTournament):
            info = await director.join(message.tournament, player, message.bot)
            self._follow(client, info.id)
        elif isinstance(message, LeaveTournament):
            who = player.id
            if message.bot is not None:
                who = (await self.identities.house_bot(message.bot)).id
                if director.host_of(message.tournament) != player.id:
                    raise ClientError("not_host", "only the host withdraws house bots")
            info = await director.leave(message.tournament, who)
        elif isinstance(message, StartTournament):
            info = await director.begin(message.tournament, player.id)
        else:
            assert isinstance(message, GetTournament)
            info = await director.fetch(message.tournament, message.round)
            if message.follow and info.status not in ("finished", "cancelled"):
                self._follow(client, info.id)  # (an ended one never changes again)
        return frames.TournamentFrame(tournament=info)

    def _follow(self, client: Client, tournament: str) -> None:
        """Push ``tournament``'s frames to ``client`` until it closes."""
        self._following.setdefault(tournament, set()).add(client)

    def _tournament_changed(self, tournament: str, info: frames.TournamentInfo) -> None:
        """A tournament changed: push it now, or (within TOURNAMENT_PUSH_INTERVAL of the
        last push) once that interval is over, with whatever it is then; its end at once."""
        self._tournament_latest[tournament] = info
        if tournament in self._tournament_timers:
            if info.status not in ("finished", "cancelled"):
                return
            self._tournament_timers.pop(tournament).cancel()
        wait = self._tournament_pushed.get(tournament, 0.0) + TOURNAMENT_PUSH_INTERVAL
        wait -= time.monotonic()
        if wait <= 0 or info.status in ("finished", "cancelled"):
            self._push_tournament(tournament)
        else:
            loop = asyncio.get_running_loop()
            self._tournament_timers[tournament] = loop.call_later(
                wait, self._push_tournament, tournament
            )

    def _push_tournament(self, tournament: str) -> None:
        """Send a tournament's latest state to its entrants and followers; feed the bus."""
        self._tournament_timers.pop(tournament, None)
        info = self._tournament_latest.pop(tournament, None)
        if info is None:
            return
        self._tournament_pushed[tournament] = time.monotonic()
        text = frames.encode(frames.TournamentFrame(tournament=info))
        following = self._following.get(tournament, set())
        for client in list(following):
            client.send(text)
        for entrant in info.entrants:
            for client in self._live.get(entrant.player, ()):
                if client not in following:
                    client.send(text)
        standings = [msgspec.structs.asdict(r) for r in info.standings]
        self.bus.standings(
            tournament, {"status": info.status, "round": info.round, "rows": standings}
        )
        if info.status in ("finished", "cancelled"):
            self._following.pop(tournament, None)
            self._tournament_pushed.pop(tournament, None)

    def push(self, player_id: str, frame: frames.OutFrame) -> None:
        """Send ``frame`` to every live connection of ``player_id`` on this node (a
        ``match`` frame, a seek list...); nothing if the player is not connected here."""
        live = self._live.get(player_id)
        if not live:
            return
        text = frames.encode(frame)
        for client in list(live):
            client.send(text)

    def _close_others(
        self, client: Client, player_id: str, revoked: Callable[[Signed], bool] | None = None
    ) -> None:
        """Close the player's other live connections on this node (1000, logged out): all
        of them, or those whose token was ``revoked``."""
        for other in list(self._live.get(player_id, ())):
            signed = self._signed.get(other)
            if other is client or (revoked is not None and (signed is None or not revoked(signed))):
                continue
            self._log_out(other)

    def _log_out(self, other: Client) -> None:
        self._unbind(other)
        self._release(other)
        other.close(1000, "logged out")

    async def _login(self, client: Client, message: Login) -> frames.WelcomeFrame:
        """``login``: first on a connection, or after a guest's ``hello`` (the guest's
        rooms are left: the connection becomes the account)."""
        if client.player is not None and client.player.kind != "guest":
            raise ClientError("already_hello", "this connection is already logged in")
        if message.v != PROTOCOL_VERSION:
            raise ClientError(
                "version", f"protocol version {message.v} is not supported; use {PROTOCOL_VERSION}"
            )
        signed = await self.identities.login(
            client.address, message.name, message.password, message.bot_version
        )
        if client.player is not None:  # a guest until now: leave its rooms and hints
            for task in list(client.hints):
                task.cancel()
            for room in list(client.rooms):
                room.detach(client)
            if self.cluster is not None:
                await self.cluster.forget(client)
        self._bind(client, signed)
        welcome = self._welcome(signed)
        if self.cluster is not None:
            hello = Hello(
                v=message.v,
                name=signed.player.name,
                token=signed.token,
                bot=signed.player.bot,
                bot_version=message.bot_version,
            )
            await self.cluster.hello(client, hello, welcome)
        return welcome

    async def _account(self, client: Client, message: Inbound) -> frames.Reply | None:
        """The account messages of a connection that said ``hello`` (or logged in)."""
        signed = self._signed.get(client)
        if signed is None:
            raise ClientError("bad_state", "this connection has no account to change")
        identities = self.identities
        player = signed.player
        if isinstance(message, Register):
            player = await identities.register(
                player, client.address, message.password, message.name
            )
            self._bind(client, Signed(player, signed.token, signed.token_hash, signed.kind))
            self._rebind_all(player)
            return frames.AccountFrame(player=player.info())
        if isinstance(message, Logout):
            revoked = await identities.logout(signed, message.everywhere)
            client.send_frame(frames.with_ref(frames.LoggedOutFrame(revoked=revoked), message.ref))
            if message.everywhere:
                self._close_others(client, player.id)
            elif revoked:  # every connection bound to the revoked token (other tabs)
                for other in list(self._by_token.get(signed.token_hash, ())):
                    if other is not client:
                        self._log_out(other)
            self._unbind(client)
            self._release(client)
            client.close(1000, "logged out")
            return None
        if isinstance(message, ChangePassword):
            await identities.change_password(signed, client.address, message.old, message.new)
            kept = signed.token_hash
            self._close_others(  # exactly those whose session was revoked
                client, player.id, lambda s: s.kind == "session" and s.token_hash != kept
            )
            return frames.AccountFrame(player=player.info())
        if isinstance(message, CreateBot):
            bot, token = await identities.create_bot(player, message.name)
            return frames.BotAccountFrame(player=bot.info(), token=token)
        if isinstance(message, ListBots):
            bots = await identities.bots(player)
            return frames.BotAccountsFrame(bots=[bot.info() for bot in bots])
        if isinstance(message, BotToken):
            bot, token = await identities.bot_token(player, message.bot)
            self._close_others(client, bot.id)  # connected with a token now revoked
            return frames.BotAccountFrame(player=bot.info(), token=token)
        raise ClientError("unknown_type", f"{type(message).__name__} is not handled", abuse=True)

    async def _create(self, client: Client, message: CreateRoom) -> frames.CreatedFrame:
        assert client.player is not None
        if message.rated and message.sit and client.player.kind == "guest":
            # (refused before the room is made: a guest may host a rated room, not sit in it)
            raise ClientError(
                "account_required", "a rated room's seats are for accounts and bots: log in"
            )
        clock = message.clock
        settings = Settings(
            public=message.public,
            spectators=message.spectators,
            turn_time=message.turn_time,
            clock_base=clock.base if clock else 0.0,
            clock_increment=clock.increment if clock else 0.0,
            autostart=message.autostart,
            chat=message.chat,
            rated=message.rated,
        )
        room = await self.lobby.create(
            client.player, message.game, message.options, settings, address_key(client.address)
        )
        seat = None
        if message.sit:
            joined = await room.join(client, 0)
            seat = joined.seat
        return frames.CreatedFrame(room=room.id, invite=room.invite, seat=seat)

    def _catalogue(self, message: Catalogue) -> frames.CatalogueFrame:
        """The games, their options, presets, bots and hints, and the room options, in the
        language asked for (``server.wire.catalogue``; also before ``hello``)."""
        try:
            return self.catalogue.frame(message.lang)
        except catalogue.UnknownLanguage as exc:
            raise ClientError("malformed", str(exc)) from None

    async def _profile(self, player_id: str) -> frames.ProfileFrame:
        player = await self.identities.get(player_id)
        if player is None:
            raise ClientError("no_such_player", f"no player {player_id!r}")
        totals = await self.store.stats(player.id)
        history = await self.store.history(player.id)
        return frames.ProfileFrame(
            player=player.info(),
            stats={game: {**values, **stats.rates(values)} for game, values in totals.items()},
            history=msgspec.convert(history, list[frames.HistoryEntry]),
            ratings=await board.player_ratings(self.store, player.id),
        )

    # -- ratings (server.ratings.board): leaderboards, profiles by name ------------------

    async def _ratings_reply(
        self, message: Profile | Leaderboard, own: str
    ) -> frames.ProfileFrame | frames.LeaderboardFrame:
        if isinstance(message, Leaderboard):
            query = board.BoardQuery.check(message.game, message.rules, message.pool, message.limit)
            return await self.leaderboard(query)
        if message.name is not None and message.player is None:
            return await self.profile_by_name(message.name)
        return await self._profile(message.player or own)

    async def leaderboard(self, query: board.BoardQuery) -> frames.LeaderboardFrame:
        """The ``leaderboard`` frame (the protocol message and ``GET /api/leaderboard``)."""
        return await board.leaderboard(
            self.store, query, min_games=self.config.leaderboard_min_games
        )

    async def _feed_board(self, game: str, rules: str, pool: str) -> frames.LeaderboardFrame:
        return await self.leaderboard(board.BoardQuery(game, rules, pool))

    async def profile_by_name(self, name: str) -> frames.ProfileFrame:
        """The profile of the account, bot account or house bot named ``name`` (the
        protocol's ``profile {name}`` and ``GET /api/player/NAME``); guests' names are
        not unique, so they are found by id only."""
        found = await self.store.player_by_name(account_key(name))
        if found is None:
            raise ClientError("no_such_player", f"no account named {name!r}")
        return await self._profile(found.id)


def address_key(address: str) -> str:
    """What the per-address limits count by: the address, or an IPv6 address's /64
    network (one host is usually given a whole /64)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def forwarded_for(header: str | None, proxy: str) -> str:
    """The client's address as a trusted proxy says it: the last ``X-Forwarded-For``
    entry (the one the proxy itself added); the proxy's own address without one."""
    if not header:
        return proxy
    last = header.rsplit(",", 1)[-1].strip()
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        return proxy


@dataclass(slots=True)
class _Limited:
    """A connection's state past the rate limit: until when it was told to wait, the
    rooms whose ``act`` was dropped, and the timer that sends their turns again."""

    until: float = 0.0
    rooms: set[str] = field(default_factory=set)
    handle: asyncio.TimerHandle | None = None


class _IdleTimer:
    """Calls ``on_idle`` once ``idle`` (fed ``time.monotonic()``) is due: one timer per
    idle period, re-armed while messages keep coming."""

    def __init__(self, idle: Idle, on_idle: Callable[[], None]) -> None:
        self.loop = asyncio.get_running_loop()
        self.idle = idle
        self.on_idle = on_idle
        self.handle = self.loop.call_later(idle.timeout, self._check)

    def _check(self) -> None:
        left = self.idle.due() - time.monotonic()
        if left > 0:
            self.handle = self.loop.call_later(left, self._check)
        else:
            self.on_idle()

    def cancel(self) -> None:
        self.handle.cancel()


def _unavailable(exc: StoreError) -> ClientError:
    """A request the store could not carry out (a full or failing disk): the client is
    told to try again later; a :class:`LeaseLost` or a bug is not that, and is raised."""
    if isinstance(exc, LeaseLost | NameTaken):
        raise exc
    log.warning("a request failed in the store: %s", exc)
    return ClientError(
        "unavailable", "the server cannot save anything now: nothing was done; try again later"
    )


async def _close_discarding(ws: ServerConnection, code: int, reason: str) -> None:
    """Close ``ws``, discarding whatever the peer still sends meanwhile.

    Reading on matters: a peer that keeps sending fills the connection's incoming queue,
    which stops reading from the socket, so the peer's answer to the close would never be
    read and the close would last the whole ``close_timeout``."""
    closing = asyncio.ensure_future(ws.close(code, reason))
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass
    await closing

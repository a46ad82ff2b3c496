"""Several umpire nodes on one PostgreSQL database: ownership, relay and failover.

A client may connect to any node and reach any room (docs/scale-out.md). Each room lives
on the one node that holds its lease (``server.cluster.lease``); memory is a cache of the log, so
any node can rebuild any room. This module is a node's part in that:

- **Ownership.** The lobby asks :meth:`Cluster.claim` before it creates or rebuilds a
  room; a granted lease's fencing token goes to the store, which then refuses every write
  of that room once another node took it over.
- **Relay.** A message naming a room this node does not own is forwarded, frame for
  frame, over a websocket to the owner (:class:`PeerLink`, one per client and owner), and
  the owner's frames come back unchanged: clients never know. The link logs in with the
  client's own token, so the owner applies its ordinary rules to the same player; the
  cluster's shared secret (``X-Umpire-Peer``) only exempts the link from the per-address
  connection limit. A client's ``welcome.seats`` lists its rooms on every node.
- **Failover.** At every heartbeat (``ttl / 3`` apart by default, on a fixed schedule)
  the node renews its lease on life, publishes its public rooms for the other nodes'
  listings, drops the rooms it lost, and takes over the unfinished rooms of dead nodes:
  rebuilt from the log as after a restart (clocks and timers resume, house bots are
  launched again here). When a link's owner goes away the relayed client is closed with
  1012: it reconnects and resumes, as after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import asyncpg
import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.http11 import Request

from server.cluster.lease import Granted, Leases, Owned, Unknown, new_node_id
from server.errors import StoreError
from server.ids import same_secret
from server.rooms.room import MOVED, PLAYING, WAITING
from server.wire.frames import HeldSeat, RoomInfo, WelcomeFrame, check
from server.wire.protocol import CreateRoom, Hello, ListRooms, Ping, Profile
from server.wire.protocol import encode as encode_message

if TYPE_CHECKING:
    from server.rooms.connection import Client
    from server.rooms.lobby import Lobby
    from server.store.pg import PgStore
    from server.wire.protocol import Inbound

log = logging.getLogger(__name__)

PEER_HEADER = "X-Umpire-Peer"
#: the address relayed connections are counted under (exempt from the per-address limit)
PEER_ADDRESS = "peer"
_LOCAL = (Hello, CreateRoom, ListRooms, Profile, Ping)


class PeerLink:
    """One client's connection, through this node, to the node that owns some of its
    rooms: frames go out as the client sent them and come back as the owner sent them."""

    def __init__(self, url: str, ws: ClientConnection, client: Client, welcome: WelcomeFrame):
        self.url = url
        self.ws = ws
        self.client = client
        #: the owner's ``welcome`` to the link's hello (its ``seats`` are the owner's)
        self.welcome = welcome
        self.closed = False
        self._pump = asyncio.create_task(self._run(), name=f"peer-{url}")

    @classmethod
    async def open(
        cls, url: str, secret: str, hello: Hello, client: Client, timeout: float
    ) -> PeerLink:
        """Connect to the owner at ``url`` and say the client's hello there."""
        ws = await asyncio.wait_for(
            connect(url, additional_headers={PEER_HEADER: secret}, compression=None),
            timeout,
        )
        try:
            await ws.send(encode_message(hello), text=True)
            answer = await asyncio.wait_for(ws.recv(decode=False), timeout)
            try:
                welcome = check(answer)
            except msgspec.MsgspecError as exc:
                raise ConnectionError(f"node {url} answered the relayed hello with {exc}") from None
            if not isinstance(welcome, WelcomeFrame):
                raise ConnectionError(f"node {url} refused the relayed hello: {answer!r}")
        except BaseException:
            await ws.close()
            raise
        return cls(url, ws, client, welcome)

    async def send(self, frame: str | bytes) -> None:
        """Forward one of the client's frames to the owner."""
        await self.ws.send(frame)

    async def _run(self) -> None:
        recv, send = self.ws.recv, self.client.send
        try:
            while True:
                send(await recv(decode=False))  # (the owner's frames, as it encoded them)
        except ConnectionClosed:
            pass
        finally:
            if not self.closed:  # the owner went away, not the client: let it come back
                self.closed = True
                self.client.close(MOVED, "the room's node went away: reconnect and resume")

    async def close(self) -> None:
        """Close the link (the client left); the owner detaches the client."""
        self.closed = True
        await self.ws.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self._pump


class Cluster:
    """This node in a cluster: ``await start()`` before the lobby restores rooms,
    ``await advertise(url)`` once listening, ``await close()`` after the lobby closed."""

    PEER_ADDRESS = PEER_ADDRESS

    def __init__(
        self,
        store: PgStore,
        lobby: Lobby,
        *,
        name: str = "",
        ttl: float = 5.0,
        beat: float = 0.0,
    ):
        self.store = store
        self.lobby = lobby
        self.ttl = ttl
        #: seconds between heartbeats (0: a third of the ttl); shorter than the ttl
        self.beat = beat or ttl / 3
        if not 0 < self.beat < ttl:
            raise ValueError(f"a heartbeat every {self.beat:g} s cannot keep a {ttl:g} s lease")
        self.node = new_node_id(name)
        self.leases = Leases(store.dsn, self.node, ttl=ttl)
        self.secret = ""
        self._tokens: dict[str, int] = {}
        self._adopted: set[str] = set()  # rooms taken over, their house bots launched
        self._hellos: dict[Client, Hello] = {}
        self._links: dict[Client, dict[str, PeerLink]] = {}
        self._routes: dict[Client, dict[str, PeerLink]] = {}
        self._remote: list[RoomInfo] = []
        self._beat: asyncio.Task[None] | None = None
        self._listening = False  # rooms are taken over only once the node listens
        #: called with a room's id when this node lost it (the app stops its house bots)
        self.on_lost: Callable[[str], None] | None = None

    # -- life ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Register this node and hook into the lobby (before it restores rooms)."""
        await self.leases.open()
        self.secret = await self.leases.secret()
        self.store.fence_all = True
        self.lobby.claim = self.claim
        self.lobby.lost = self.disown
        self.lobby.remote_listing = self.remote_listing
        # Renew from now on, however long restoring the rooms takes.
        self._beat = asyncio.create_task(self._heartbeats(), name="cluster-heartbeat")
        log.info("cluster node %s (lease ttl %g s)", self.node, self.ttl)

    async def advertise(self, url: str) -> None:
        """Tell the other nodes where this one listens (it relays and takes rooms over
        from now on)."""
        await self.leases.advertise(url)
        self._listening = True

    async def stop(self) -> None:
        """Stop renewing and taking rooms over (the server is closing; idempotent)."""
        self._listening = False
        if self._beat is not None:
            self._beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beat
            self._beat = None

    async def close(self) -> None:
        """Close every link and leave: other nodes may take this node's unfinished rooms
        over at once (call it after the lobby stopped them)."""
        await self.stop()
        for client in list(self._links):
            await self.forget(client)
        await self.leases.close(leave=True)

    def is_peer(self, request: Request | None) -> bool:
        """Whether a connection is another node relaying a client."""
        return request is not None and same_secret(request.headers.get(PEER_HEADER), self.secret)

    # -- ownership -------------------------------------------------------------------------

    async def claim(self, room: str, new: bool) -> bool:
        """Whether this node owns ``room`` now (taking a free or orphaned lease); the
        lobby's hook before it creates (``new``) or rebuilds a room."""
        if room in self._tokens:
            return True
        result = await self.leases.acquire(room, new=new)
        if isinstance(result, Granted):
            self._own(room, result.token)
            return True
        return False

    def _own(self, room: str, token: int) -> None:
        self._tokens[room] = token
        self.store.fence(room, token)

    async def _adopt(self, room_id: str) -> None:
        """Rebuild a room this node just took over (or wait until it is rebuilt), and
        launch its house bots here (once)."""
        fresh = room_id not in self.lobby.rooms and room_id not in self._adopted
        self._adopted.add(room_id)
        room = await self.lobby.get(room_id)
        if fresh and room is not None and room.state in (WAITING, PLAYING):
            log.info("room %s: running on this node now", room_id)
            room.relaunch_bots()

    def disown(self, room_id: str) -> None:
        """This node no longer holds ``room_id``: forget its lease and stop its house bots
        here. Called by the heartbeat, and at once when a write of the room was fenced;
        until then a client sent away (1012) would reconnect here, the room be rebuilt on
        the stale lease, fenced again, and so on."""
        # The store keeps the stale token: whatever this node still tries to write for
        # the room fails (a fresh claim would fence it anew).
        self._tokens.pop(room_id, None)
        self._adopted.discard(room_id)
        if self.on_lost is not None:
            self.on_lost(room_id)

    async def _lost(self, room_id: str) -> None:
        """Another node holds this room now: stop it here and send its viewers away."""
        self.disown(room_id)
        room = self.lobby.rooms.get(room_id)
        if room is None:
            return
        log.warning("room %s: lease lost; the room is stopped on this node", room_id)
        viewers = list(room.viewers)
        await self.lobby.evict(room_id)  # gone from here before its clients hear of it
        for conn in viewers:
            close = getattr(conn, "close", None)
            if close is not None:
                close(MOVED, "the room moved to another node: reconnect and resume")

    def remote_listing(self, game: str | None) -> list[RoomInfo]:
        """The public rooms of the other nodes (as of the last heartbeat)."""
        return [r for r in self._remote if game is None or r.game == game]

    async def _heartbeats(self) -> None:
        """Renew this node's lease on life every ``beat`` seconds, and nothing slower:
        the beats keep a fixed schedule (a slow renewal does not push the next one back),
        and taking rooms over (replaying their logs) runs in its own task, so that it can
        never delay a renewal."""
        adopting: asyncio.Task[None] | None = None
        loop = asyncio.get_running_loop()
        due = loop.time()
        try:
            while True:
                try:
                    await self._beat_once()
                except (OSError, StoreError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                    log.warning("cluster heartbeat failed: %s", exc)
                if self._listening and (adopting is None or adopting.done()):
                    adopting = asyncio.create_task(self._take_over(), name="cluster-takeover")
                due = max(due + self.beat, loop.time())  # (late: beat now, not to catch up)
                await asyncio.sleep(due - loop.time())
        finally:
            if adopting is not None:
                adopting.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await adopting

    async def _beat_once(self) -> None:
        # Only rooms held before the heartbeat's query can be missing from its answer:
        # a room claimed meanwhile is not lost.
        held = set(self._tokens)
        owned = await self.leases.heartbeat(self.lobby.local_listing(None))
        self._remote = _room_infos(await self.leases.listings())
        for room in held - owned:
            await self._lost(room)

    async def _take_over(self) -> None:
        """Take over the unfinished rooms of dead nodes, rebuilt from their logs."""
        try:
            for room in await self.leases.orphans():
                if await self.claim(room, False):
                    await self._adopt(room)
        except (OSError, StoreError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("cluster takeover failed: %s", exc)

    # -- relay -----------------------------------------------------------------------------

    async def hello(self, client: Client, message: Hello, reply: WelcomeFrame) -> None:
        """After a ``hello``: remember how to say it to other nodes, and complete
        ``welcome.seats`` with the player's rooms on other nodes (or taken over here)."""
        token = reply.token
        if not token or client.player is None:
            return  # a house bot: it only ever talks to the node that launched it
        if client.address == PEER_ADDRESS:
            # Another node relays this client: answer for this node's rooms only (never
            # relay onwards, so links never chain or loop).
            for room in await self.leases.rooms_of(client.player.id):
                if room in self._tokens or room in self.lobby.rooms:
                    # a room being rebuilt (just taken over, say): wait for its log
                    await self.lobby.get(room)
            reply.seats = self.lobby.seats_of(client.player)
            return
        self._hellos[client] = Hello(
            v=message.v,
            name=client.player.name,
            token=token,
            bot=message.bot,
            bot_version=message.bot_version,  # (a bot's ratings are kept per version)
        )
        remote: list[HeldSeat] = []
        for room in await self.leases.rooms_of(client.player.id):
            if room in self.lobby.rooms:
                await self.lobby.get(room)  # a room being rebuilt: wait for its log
                continue
            link = await self._link_for(client, room)
            if link is not None:
                remote.extend(s for s in link.welcome.seats if s.room == room)
        reply.seats = self.lobby.seats_of(client.player) + remote

    async def route(self, client: Client, message: Inbound, frame: str | bytes) -> bool:
        """Forward ``message`` to the node owning its room; ``False``: handle it here."""
        if isinstance(message, _LOCAL) or client.player is None:
            return False
        if client.address == PEER_ADDRESS:
            return False  # relayed here: this node answers (or says it has no such room)
        room: str | None = getattr(message, "room", None)
        invite: str | None = getattr(message, "invite", None)
        if room is None and invite is not None:
            room = await self.store.game_by_invite(invite)
        if room is None:
            return False
        routes = self._routes.get(client)
        link = routes.get(room) if routes is not None else None
        if link is None or link.closed:
            local = self.lobby.rooms.get(room)
            if local is not None and not local.closed:
                return False
            link = await self._link_for(client, room)
            if link is None:
                return False
        await link.send(frame)
        return True

    async def _link_for(self, client: Client, room: str) -> PeerLink | None:
        """The link to ``room``'s owner, or ``None`` when the room is (now) this node's
        or unknown. While the owner is registered alive but does not answer (it just
        died), wait for its lease to expire and take the room over."""
        hello = self._hellos.get(client)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2 * self.ttl + 1
        while True:
            result = await self.leases.acquire(room)
            if isinstance(result, Unknown):
                return None
            if isinstance(result, Granted):
                self._own(room, result.token)
                await self._adopt(room)
                return None
            assert isinstance(result, Owned)
            if hello is None:
                return None
            link = self._links.get(client, {}).get(result.url)
            if link is None or link.closed:
                try:
                    link = await PeerLink.open(result.url, self.secret, hello, client, self.ttl)
                except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as exc:
                    if loop.time() > deadline:
                        log.warning("room %s: node %s does not answer: %s", room, result.node, exc)
                        client.close(MOVED, "the room's node does not answer: reconnect")
                        return None
                    await asyncio.sleep(self.ttl / 4)
                    continue
                if client not in self._hellos:  # the client left meanwhile
                    await link.close()
                    return None
                self._links.setdefault(client, {})[result.url] = link
            self._routes.setdefault(client, {})[room] = link
            return link

    async def forget(self, client: Client) -> None:
        """The client disconnected: close its links (the owners detach it)."""
        self._hellos.pop(client, None)
        self._routes.pop(client, None)
        for link in self._links.pop(client, {}).values():
            await link.close()


def _room_infos(listing: list[dict[str, Any]]) -> list[RoomInfo]:
    """Other nodes' published rooms as typed entries; a room this node cannot read (a
    node of another version, say) is left out of the listing, with a warning."""
    rooms = []
    for room in listing:
        try:
            rooms.append(msgspec.convert(room, RoomInfo))
        except msgspec.ValidationError as exc:
            log.warning("cluster: a room another node lists is unreadable (%s): %s", exc, room)
    return rooms

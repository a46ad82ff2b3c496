"""The matchmaker: the asyncio actor around the pairing core, one per server process.

Every seek is written to the store before it is paired, so seeks survive a restart and
are shared by the nodes of a PostgreSQL cluster. The actor runs the core
(:class:`~server.matchmaking.pairing.Pairing`) in one task at a time (an
:class:`asyncio.Lock`), feeding it new seeks, cancellations, the store's list of open
seeks (at start, and on a cluster every ``poll`` seconds) and the time (a timer armed for
the core's next fill deadline). For each match the core returns it:

1. takes a room id (with several nodes: this node's lease on it);
2. claims the match's seeks in the store, all or none (``claim_seeks``): if another node
   took one of them first, it forgets the match, reads the open seeks again and pairs
   what is left, so that no seek is ever paired twice;
3. opens the room with :meth:`Lobby.open_match <server.rooms.lobby.Lobby.open_match>`
   (``source="seek"``), which pushes the ``match`` frames.

A node that dies between 2 and 3 leaves seeks matched into a room that does not exist: at
start, and on every poll, seeks matched longer than ``orphan_after`` seconds ago into a
room that has no row are opened again. On a cluster, a node whose players have a match
another node opened (a seek's, or any other source's) pushes them the ``match`` frame
itself, from the waiting room's stored row, on its next poll.

A seek lasts while its player is connected: when the player's last connection to this
node closes, the seeks made here are cancelled ``grace`` seconds later unless the player
is back (a server shutting down cancels nothing; after a restart, a seek whose player
does not come back within ``grace`` is cancelled).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import time
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from server.errors import ClientError, StoreError
from server.feed.bus import NO_BUS, Bus
from server.games import engine as find_engine
from server.games.base import ConfigError
from server.ids import opaque
from server.matchmaking.pairing import Match, Pairing
from server.matchmaking.seeks import Seek, pool_key
from server.players.identity import Identities, Player
from server.ratings.plan import INITIAL, distinct_owners, seat_version
from server.ratings.rules import rule_set, system_of
from server.roomcore.rating import rated_rules
from server.rooms.lobby import HouseSeat, Lobby, MatchSeat
from server.rooms.room import Settings
from server.store.contract import SeekRow, Store
from server.wire import frames
from server.wire.protocol import Seek as SeekMessage

log = logging.getLogger(__name__)

#: the open seeks one player may have at once
MAX_SEEKS_PER_PLAYER = 5

#: a cluster's poll reads what changed since the last one, from this many seconds earlier
#: (a write stamped before another node's read may commit after it; clocks differ a
#: little): reading a change twice is harmless
OVERLAP = 5.0

#: every this many polls, a cluster's node reads every open seek again (a safety net)
FULL_READ_EVERY = 120

#: a ``seeks`` frame (reply, push, MQTT) carries at most this many open seeks per game,
#: the newest; its ``total`` counts them all (docs/protocol.md)
LIST_CAP = 100

#: the shortest ``fill_after`` a seek may ask (seconds): a table of house bots is not made
#: in a loop (docs/matchmaking.md)
MIN_FILL_AFTER = 5.0


class Matchmaker:
    """Seeks and their pairing on this node (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        lobby: Lobby,
        identities: Identities,
        *,
        house_kinds: Callable[[str], list[str]],
        push: Callable[[str, frames.OutFrame], None],
        live: Callable[[str], bool] = lambda player_id: True,
        bus: Bus = NO_BUS,
        poll: float | None = None,
        grace: float = 60.0,
        orphan_after: float = 30.0,
        max_seeks: int = MAX_SEEKS_PER_PLAYER,
        min_fill_after: float = MIN_FILL_AFTER,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.identities = identities
        #: the house bots that may fill a table of a game (the app's catalogue)
        self.house_kinds = house_kinds
        self.push = push
        #: whether a player has a connection to this node (only those are told here)
        self.live = live
        self.bus = bus
        self.poll = poll
        self.grace = grace
        self.orphan_after = orphan_after
        self.max_seeks = max_seeks
        self.min_fill_after = min_fill_after
        self.clock = clock
        self.core = Pairing()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._kick = asyncio.Event()
        self._closing = False
        #: connections that follow the seeks: connection -> its game filter
        self._watchers: dict[Any, str | None] = {}
        self._changed: set[str] = set()
        self._flush: asyncio.TimerHandle | None = None
        #: the open seeks as the lobby shows them, by id (made once per seek)
        self._infos: dict[str, frames.SeekInfo] = {}
        #: (room, player): the matches other nodes opened that this node told of
        self._told: set[tuple[str, str]] = set()
        #: players of this node gone: their seeks' cancellation timers
        self._leaving: dict[str, asyncio.TimerHandle] = {}
        #: the seeks made on this node, by player (cancelled when the player leaves)
        self._made_here: dict[str, set[str]] = {}
        #: for tests and benchmarks: how many matches were opened, and claims lost
        self.opened = 0
        self.lost_claims = 0
        #: (cluster) when the seeks, the orphans and the waiting matches were last read
        self._seen_at: float | None = None
        self._orphans_since: float | None = None
        self._told_since: float | None = None
        self._polls = 0
        #: (one node) when to look for orphaned claims again
        self._orphans_at: float | None = None

    # -- life -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Read the open seeks from the store, pair what is due, start the timer task."""
        async with self._lock:
            # one node: nothing else can be opening a claimed seek's room, so every claim
            # whose room has no row is an orphan of a crash, whatever its age
            await self._reopen_orphans(any_age=self.poll is None)
            now = self.clock()
            rows = await self.store.seeks("open")
            self._seen_at = now
            matches = self.core.sync(await self._owned(rows), now)
            await self._open_all(matches)
            if self.poll is None:
                self._orphans_at = now + self.orphan_after
            if self.poll is None:  # one node: a player not back within grace leaves
                for row in rows:
                    if not row.ladder:
                        self._made_here.setdefault(row.player, set()).add(row.id)
                for player in self._made_here:
                    self.left(player)
        self._task = asyncio.create_task(self._run(), name="matchmaker")

    async def close(self) -> None:
        """Stop the timers and the task (the seeks stay in the store)."""
        self._closing = True
        for handle in self._leaving.values():
            handle.cancel()
        self._leaving.clear()
        if self._flush is not None:
            self._flush.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            due = self.core.next_due()
            timeout = None if due is None else max(0.0, due - self.clock())
            if self.poll is not None:
                timeout = self.poll if timeout is None else min(timeout, self.poll)
            elif self._orphans_at is not None:
                wait = max(0.0, self._orphans_at - self.clock())
                timeout = wait if timeout is None else min(timeout, wait)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._kick.wait()
            self._kick.clear()
            try:
                async with self._lock:
                    matches = await self._sync() if self.poll is not None else []
                    if self._orphans_at is not None and self.clock() >= self._orphans_at:
                        matches += await self._orphans_here()
                    await self._open_all(matches + self.core.tick(self.clock()))
            except StoreError as exc:
                log.warning("matchmaker: %s; trying again", exc)
                await asyncio.sleep(1.0)
            except Exception:
                log.exception("matchmaker: pairing failed; trying again")
                await asyncio.sleep(1.0)

    # -- requests -------------------------------------------------------------------------

    async def seek(self, player: Player, message: SeekMessage) -> frames.SeekAddedFrame:
        """A ``seek``: validate it, store it, pair it; the reply shows it (matched at
        once, or open)."""
        seek = await self._make(player, message)
        return await self._add(player, seek, None)

    async def take(self, player: Player, seek_id: str) -> frames.SeekAddedFrame:
        """A ``take_seek``: the player seeks what the open seek ``seek_id`` seeks, paired
        with it first."""
        target = self.core.get(seek_id)
        if target is None:
            row = await self.store.seek(seek_id)
            if row is None or row.status != "open" or row.ladder:
                raise ClientError("no_such_seek", f"no open seek {seek_id!r}")
            target = (await self._owned([row]))[0]
        if target.player == player.id:
            raise ClientError("bad_state", "that is your own seek")
        if target.rated:
            owner = await self.identities.get(target.player)
            if owner is not None and not distinct_owners([owner, player]):
                raise ClientError(
                    "bad_state",
                    "a rated seek of your own owner (or of your own bot): never rated together",
                )
        rating = await self._rating(player, target.game, target.options, target.rated)
        if not target.accepts(rating):
            raise ClientError("rating_range", "your rating is outside that seek's range")
        if target.rated and player.kind == "guest":
            raise ClientError("account_required", "a rated seek is for accounts and bots")
        seek = Seek(
            id=opaque(8),
            player=player.id,
            game=target.game,
            options=target.options,
            rated=target.rated,
            seats=target.seats,
            created=self.clock(),
            clock=target.clock,
            rating=rating,
            owner=player.owner,
        )
        await self._check_count(player)
        self.lobby.check_room_limit(player)
        return await self._add(player, seek, target.id)

    async def cancel(self, player: Player, seek_id: str) -> frames.SeekCancelledFrame:
        """A ``cancel_seek`` of one of the player's open seeks."""
        done = await self.store.cancel_seeks([seek_id], self.clock(), player=player.id)
        if not done:
            raise ClientError("no_such_seek", f"you have no open seek {seek_id!r}")
        async with self._lock:
            gone = self.core.remove(seek_id)
        self._made_here.get(player.id, set()).discard(seek_id)
        if gone is not None:
            self._touch(gone.game)
        return frames.SeekCancelledFrame(seek=seek_id)

    async def listing(self, game: str | None) -> frames.SeeksFrame:
        """The open seeks (of ``game``), oldest first: the newest ``LIST_CAP`` of each
        game, with the ``total`` of them all."""
        if game is not None:
            try:
                find_engine(game)
            except ConfigError as exc:
                raise ClientError("bad_options", str(exc)) from None
        seeks = [s for s in self.core.open(game) if not s.ladder]
        total = len(seeks)
        per_game: dict[str, int] = {}
        kept: list[Seek] = []
        for seek in reversed(seeks):  # (newest first, to keep the newest of each game)
            count = per_game.get(seek.game, 0)
            if count < LIST_CAP:
                per_game[seek.game] = count + 1
                kept.append(seek)
        kept.reverse()
        infos = self._infos
        out = []
        for seek in kept:
            info = infos.get(seek.id)
            if info is None:
                info = infos[seek.id] = await self._info(seek, "open", None)
            out.append(info)
        return frames.SeeksFrame(game=game, seeks=out, total=total)

    async def watch(self, conn: Any, game: str | None, on: bool) -> frames.SeeksFrame:
        """A ``seeks``: the listing, and (``on``) follow it."""
        if on:
            self._watchers[conn] = game
        else:
            self._watchers.pop(conn, None)
        return await self.listing(game)

    def forget(self, conn: Any) -> None:
        """The connection closed: it follows nothing any more."""
        self._watchers.pop(conn, None)

    def left(self, player_id: str) -> None:
        """The player's last connection to this node closed: cancel the seeks it made
        here after the grace period, unless it is back."""
        if self._closing or not self._made_here.get(player_id):
            return
        old = self._leaving.pop(player_id, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._leaving[player_id] = loop.call_later(
            self.grace, lambda: _spawn(self._expire(player_id), "seeks-expire")
        )

    def back(self, player_id: str) -> None:
        """The player has a connection to this node again: its seeks stay."""
        handle = self._leaving.pop(player_id, None)
        if handle is not None:
            handle.cancel()

    # -- the steps ------------------------------------------------------------------------

    async def _make(self, player: Player, message: SeekMessage) -> Seek:
        try:
            eng = find_engine(message.game)
            config = eng.make_config(message.options)
            if message.seats is not None and message.seats != config.seats:
                config = eng.with_seats(config, message.seats)
        except ConfigError as exc:
            raise ClientError("bad_options", str(exc)) from None
        options = config.to_options()
        if message.rated:
            if player.kind == "guest":
                raise ClientError("account_required", "a rated seek is for accounts and bots")
            if not rated_rules(eng.name, options):
                raise ClientError("bad_options", f"rated: these {eng.name} options are never rated")
        if message.fill_after is not None:
            if message.fill_after < self.min_fill_after:
                raise ClientError(
                    "bad_options", f"fill_after is at least {self.min_fill_after:g} seconds"
                )
            kinds = self._fill_kinds(eng.name)
            if not kinds:
                raise ClientError("unsupported", f"no house bots to fill a {eng.name} table")
            if len(kinds) < config.seats - 1:
                raise ClientError(
                    "unsupported",
                    f"only {len(kinds)} different house bots play {eng.name}: "
                    f"fill_after needs a table of at most {len(kinds) + 1} seats",
                )
        span = None
        if message.rating_range is not None:
            low, high = message.rating_range
            if low > high:
                raise ClientError("bad_options", "rating_range is [lowest, highest]")
            span = (low, high)
        await self._check_count(player)
        self.lobby.check_room_limit(player)
        clock = (message.clock.base, message.clock.increment) if message.clock else None
        return Seek(
            id=opaque(8),
            player=player.id,
            game=eng.name,
            options=options,
            rated=message.rated,
            seats=config.seats,
            created=self.clock(),
            clock=clock,
            rating=await self._rating(player, eng.name, options, message.rated),
            range=span,
            fill_after=message.fill_after,
            owner=player.owner,
        )

    async def _owned(self, rows: Iterable[SeekRow]) -> list[Seek]:
        """The store's open seeks as the core's, each with its player's owner (the
        identities' cache: one read per player at most)."""
        seeks = _seeks(rows)
        out = []
        for seek in seeks:
            if seek.rated:
                player = await self.identities.get(seek.player)
                if player is not None and player.owner:
                    seek = dataclasses.replace(seek, owner=player.owner)
            out.append(seek)
        return out

    async def _check_count(self, player: Player) -> None:
        mine = await self.store.seeks("open", player=player.id)
        if len([s for s in mine if not s.ladder]) >= self.max_seeks:
            raise ClientError(
                "too_many_seeks", f"at most {self.max_seeks} open seeks: cancel one first"
            )

    async def _rating(
        self, player: Player, game: str, options: dict[str, Any], rated: bool
    ) -> float | None:
        """The player's rating under these rules (the system's initial rating if it has
        none yet); ``None`` for rules that are never rated."""
        rules = rule_set(game, options)
        system = system_of(game)
        if rules is None or system is None:
            return None
        version = seat_version(player) if player.kind != "guest" else ""
        for row in await self.store.ratings(player.id):
            key = row.key
            if key.game == game and key.rules == rules and key.version == version:
                return row.rating.rating
        return INITIAL[system].rating

    async def _add(self, player: Player, seek: Seek, first: str | None) -> frames.SeekAddedFrame:
        async with self._lock:  # (stored and paired before a poll may read it)
            await self.store.add_seek(_row(seek))
            self._made_here.setdefault(player.id, set()).add(seek.id)
            matches = self.core.add(seek, self.clock(), first)
            await self._open_all(matches)
        self._touch(seek.game)
        self._kick.set()  # (a new fill deadline, maybe)
        row = await self.store.seek(seek.id)
        status, room = ("open", None) if row is None else (row.status, row.room)
        return frames.SeekAddedFrame(seek=await self._info(seek, status, room))

    async def _open_all(self, matches: Iterable[Match]) -> None:
        pending = list(matches)
        while pending:
            match = pending.pop(0)
            if await self._open(match):
                continue
            # another node claimed one of these seeks first: learn the truth (every open
            # seek: a claim stamped by a node whose clock lags is not missed), pair again
            self.lost_claims += 1
            pending += await self._sync(full=True)

    async def _open(self, match: Match) -> bool:
        """Claim ``match``'s seeks and open its room; False if the claim was lost."""
        room_id = await self.lobby.new_room_id()
        ids = [s.id for s in match.seeks]
        if not await self.store.claim_seeks(ids, room_id, self.clock()):
            return False
        first = match.seeks[0]
        self._touch(first.game)
        for seek in match.seeks:
            self._made_here.get(seek.player, set()).discard(seek.id)
        try:
            seats: list[MatchSeat] = []
            for seek in match.seeks:
                player = await self.identities.get(seek.player)
                if player is None:
                    raise ClientError("no_such_player", f"no player {seek.player!r}")
                seats.append(player)
            if match.house:  # (distinct house bots: never one bot twice at a table)
                kinds = self._fill_kinds(first.game)
                if len(kinds) < match.house:
                    raise ClientError("unsupported", f"not enough house bots for {first.game}")
                seats += [HouseSeat(kind) for kind in kinds[: match.house]]
            random.SystemRandom().shuffle(seats)  # (who sits where: colours, turn order)
            clock = first.clock
            settings = Settings(
                rated=first.rated,
                clock_base=clock[0] if clock else 0.0,
                clock_increment=clock[1] if clock else 0.0,
            )
            await self.lobby.open_match(
                first.game,
                first.options,
                seats,
                source="seek",
                ref=first.id,
                settings=settings,
                room_id=room_id,
                refs={s.player: s.id for s in match.seeks},
            )
        except ClientError as exc:
            log.warning("matchmaker: seeks %s could not be paired (%s)", ids, exc.message)
            await self.store.reopen_seeks(room_id, self.clock())
            await self.store.cancel_seeks(ids, self.clock())
            return True
        self.opened += 1
        return True

    async def _sync(self, *, full: bool = False) -> list[Match]:
        """Read what changed in the store's seeks since the last read (the truth on a
        cluster; every open seek at the first read and every ``FULL_READ_EVERY`` polls)
        and return the matches to open; tell this node's players of the matches other
        nodes opened. The work is bounded by the recent changes, not by history."""
        now = self.clock()
        await self._reopen_orphans(since=self._orphans_since)
        self._orphans_since = now - self.orphan_after - OVERLAP
        self._polls += 1
        if full or self._seen_at is None or self._polls % FULL_READ_EVERY == 0:
            rows = await self.store.seeks("open")
            before = {s.id: s.game for s in self.core.open()}
            matches = self.core.sync(await self._owned(rows), now)
            now_open = {r.id: r.game for r in rows}
            for seek_id, game in [*before.items(), *now_open.items()]:
                if (seek_id in before) != (seek_id in now_open):
                    self._touch(game)
        else:
            rows = await self.store.seeks_changed(self._seen_at - OVERLAP)
            was = {r.id for r in rows if r.id in self.core}
            opened = await self._owned([r for r in rows if r.status == "open"])
            matches = self.core.apply(opened, [r.id for r in rows if r.status != "open"], now)
            for row in rows:
                if (row.id in was) != (row.id in self.core):
                    self._touch(row.game)
        self._seen_at = now
        await self._tell_matches(now)
        return matches

    async def _orphans_here(self) -> list[Match]:
        """(One node, every ``orphan_after`` seconds.) Open again the seeks of claims whose
        room was never made (a failure between the claim and the room) and pair them."""
        now = self.clock()
        self._orphans_at = now + self.orphan_after
        reopened = await self._reopen_orphans(since=self._orphans_since)
        self._orphans_since = now - self.orphan_after - OVERLAP
        rows = [row for sid in reopened if (row := await self.store.seek(sid)) is not None]
        opened = await self._owned([r for r in rows if r.status == "open"])
        for seek in opened:
            self._touch(seek.game)
        return self.core.apply(opened, [], now)

    async def _tell_matches(self, now: float) -> None:
        """(On a cluster, at each read.) Push a ``match`` frame to this node's players
        for each waiting match another node opened for them, whatever its source: the
        opening node pushed it to its own connections only. Only the rooms created since
        the last read are looked at (every waiting one at the first): a player who
        connects later finds its seat in ``welcome.seats``."""
        waiting: set[str] = set()
        since = self._told_since
        self._told_since = now - OVERLAP
        async for game in self.store.iter_games(["waiting"], created_after=since):
            settings = Settings.from_json(game.settings)
            if settings.match is None:
                continue
            waiting.add(game.id)
            if game.id in self.lobby.rooms:
                continue  # (opened here: open_match told them)
            todo = [
                (seat, pid)
                for seat, pid in enumerate(game.seats)
                if pid is not None and (game.id, pid) not in self._told and self.live(pid)
            ]
            if not todo:
                continue
            refs = {}
            if settings.match == "seek":
                refs = {row.player: row.id for row in await self.store.seeks_of_room(game.id)}
            infos = []
            for pid in game.seats:
                player = None if pid is None else await self.identities.get(pid)
                if player is not None:
                    infos.append(player.info())
            for seat, pid in todo:
                self._told.add((game.id, pid))
                self.push(
                    pid,
                    frames.MatchFrame(
                        room=game.id,
                        seat=seat,
                        game=game.game,
                        source=settings.match,
                        ref=refs.get(pid, settings.match_ref),
                        options=game.options,
                        players=infos,
                        rated=bool(settings.rated),
                        no_show=settings.no_show,
                    ),
                )
        self._told = {(room, pid) for room, pid in self._told if room in waiting}

    async def _reopen_orphans(
        self, *, any_age: bool = False, since: float | None = None
    ) -> list[str]:
        """Open again the seeks claimed more than ``orphan_after`` seconds ago (``any_age``:
        whenever; ``since``: and not before then) for a room that was never made (its node
        died, or failed, between the claim and the room); return their ids. One query
        finds those rooms (``Store.orphan_seek_rooms``), whatever the history."""
        now = self.clock()
        before = now + 1e9 if any_age else now - self.orphan_after
        out: list[str] = []
        for room in await self.store.orphan_seek_rooms(before, since):
            reopened = await self.store.reopen_seeks(room, now)
            log.warning("matchmaker: room %s was never made; seeks %s reopened", room, reopened)
            out += reopened
        return out

    async def _expire(self, player_id: str) -> None:
        try:
            await self._expire_now(player_id)
        except Exception:
            log.exception("matchmaker: the seeks of %s could not be cancelled", player_id)

    async def _expire_now(self, player_id: str) -> None:
        self._leaving.pop(player_id, None)
        mine = self._made_here.pop(player_id, set())
        if self._closing or not mine:
            return
        done = await self.store.cancel_seeks(sorted(mine), self.clock(), player=player_id)
        async with self._lock:
            for seek_id in done:
                gone = self.core.remove(seek_id)
                if gone is not None:
                    self._touch(gone.game)
        if done:
            log.info("matchmaker: %s left; seeks %s cancelled", player_id, done)

    def _fill_kinds(self, game: str) -> list[str]:
        """The house bots that may fill a table of ``game``, each once: the catalogue's
        kinds in order, then the autopilot for a game with a stand-in policy."""
        kinds = list(dict.fromkeys(self.house_kinds(game)))
        if "autopilot" not in kinds and find_engine(game).standin_policy is not None:
            kinds.append("autopilot")
        return kinds

    # -- telling the lobby ----------------------------------------------------------------

    def _touch(self, game: str) -> None:
        """The open seeks of ``game`` changed: push the new lists soon (coalesced)."""
        self._changed.add(game)
        if self._flush is None and not self._closing:
            loop = asyncio.get_running_loop()
            self._flush = loop.call_later(0.05, lambda: _spawn(self._push(), "seeks-push"))

    async def _push(self) -> None:
        self._flush = None
        try:
            await self._push_lists()
        except Exception:
            log.exception("matchmaker: the seek lists could not be pushed")

    async def _push_lists(self) -> None:
        changed, self._changed = self._changed, set()
        for gone in [sid for sid in self._infos if sid not in self.core]:
            del self._infos[gone]
        lists: dict[str | None, frames.SeeksFrame] = {}
        if self.bus is not NO_BUS:
            for name in changed:
                lists[name] = await self.listing(name)
                self.bus.seeks(name, msgspec.to_builtins(lists[name].seeks))
        for conn, game in list(self._watchers.items()):
            if game is not None and game not in changed:
                continue
            if game not in lists:
                lists[game] = await self.listing(game)
            conn.send_frame(lists[game])

    async def _info(self, seek: Seek, status: str, room: str | None) -> frames.SeekInfo:
        player = await self.identities.get(seek.player)
        who = player.info() if player is not None else frames.PlayerInfo(seek.player, "?", False)
        return frames.SeekInfo(
            id=seek.id,
            player=who,
            game=seek.game,
            options=seek.options,
            rated=seek.rated,
            seats=seek.seats,
            clock=None if seek.clock is None else frames.ClockSetting(*seek.clock),
            rating=seek.rating,
            rating_range=None if seek.range is None else list(seek.range),
            fill_after=seek.fill_after,
            created=seek.created,
            status=status,
            room=room,
        )


_background: set[asyncio.Task[None]] = set()


def _spawn(job: Any, name: str) -> None:
    """Run ``job`` (a coroutine that logs its own failures) in the background."""
    task = asyncio.ensure_future(job)
    task.set_name(name)
    _background.add(task)
    task.add_done_callback(_background.discard)


def _row(seek: Seek) -> SeekRow:
    return SeekRow(
        id=seek.id,
        player=seek.player,
        game=seek.game,
        options=seek.options,
        rated=seek.rated,
        seats=seek.seats,
        created=seek.created,
        pool=seek.pool,
        clock=seek.clock,
        rating=seek.rating,
        range=seek.range,
        fill_after=seek.fill_after,
        ladder=seek.ladder,
        max_concurrent=seek.max_concurrent,
        updated=seek.created,
    )


def _seeks(rows: Iterable[SeekRow]) -> list[Seek]:
    """The store's open seeks as the core's (the ladder's own seeks are not paired here)."""
    return [
        Seek(
            id=r.id,
            player=r.player,
            game=r.game,
            options=r.options,
            rated=r.rated,
            seats=r.seats,
            created=r.created,
            clock=r.clock,
            rating=r.rating,
            range=r.range,
            fill_after=r.fill_after,
            ladder=r.ladder,
            max_concurrent=r.max_concurrent,
            pool=r.pool or pool_key(r.game, r.options, r.rated, r.seats, r.clock),
        )
        for r in rows
        if not r.ladder
    ]


__all__ = ["MAX_SEEKS_PER_PLAYER", "Matchmaker"]

"""The tournament director: the asyncio actor around the tournament cores.

It keeps every tournament in the store (:meth:`Store.save_tournament` after every change:
the state without its ended games, which go once each to the append-only
``tournament_games`` table (:func:`stored_form`, :func:`load_state`), compare-and-set on
its version), opens each paired game's room with
:meth:`Lobby.open_match` (``source="tournament"``, ``ref`` the tournament's id), hears
each room's end through ``Lobby.match_ended["tournament"]`` and ticks once a second (start
times, an arena's end). After a restart (a SIGKILL included) :meth:`Director.start`
reloads every tournament not over, takes the results of rooms that ended meanwhile from
the games table, and goes on: rooms themselves are rebuilt from the log by the lobby.

A room's no-show deadline (``Timing.no_show``) forfeits an entrant who never comes; a
``leave_tournament`` withdraws at once; an entrant whose connections all closed is
withdrawn after ``grace`` seconds without one (docs/tournaments.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

import msgspec

from server.errors import ClientError, StoreError
from server.games import engine as find_engine
from server.games.base import FORFEIT_PREFIX, ConfigError
from server.ids import opaque
from server.players.identity import Player
from server.ratings.rules import rule_set
from server.roomcore.rating import rated_rules
from server.roomcore.settings import Settings
from server.rooms.lobby import HouseSeat, Lobby, MatchSeat
from server.store.contract import GameRow, Store, TournamentRow
from server.tournaments.core import (
    CANCELLED,
    CREATED,
    FINISHED,
    RUNNING,
    Spec,
    State,
    TournamentCore,
    TournamentError,
)
from server.tournaments.standings import ARENA, Game, Row
from server.wire.frames import (
    StandingInfo,
    TournamentEntrantInfo,
    TournamentGameInfo,
    TournamentInfo,
    TournamentSummary,
)

log = logging.getLogger(__name__)

#: Why a seat is taken out that makes a tournament game a forfeit (not a clock's flag)
FORFEITS = ("no_show", "abandoned")
FORFEIT_RECORDS = tuple(FORFEIT_PREFIX + why for why in FORFEITS)

#: The wire's error code of each refusal of the core
ERROR_OF = {"bad_tournament": "bad_options"}

#: The seed rating of an entrant without a rating under the tournament's rule set
DEFAULT_RATING = 1500.0

#: Seconds an entrant may be without a connection before being withdrawn.
GRACE = 120.0

#: Open (created or running) tournaments one host may have, and this node in all.
MAX_OPEN_PER_HOST = 3
MAX_OPEN = 1000

#: A pushed arena frame's games: those not over and the latest ARENA_RECENT ended; its
#: history is paged ARENA_PAGE games a page (``tournament {id, round}``).
ARENA_RECENT = 50
ARENA_PAGE = 100


def live_games(state: State) -> list[Game]:
    """The games a pushed ``tournament`` frame carries: the current round's (an arena:
    those not over and the latest :data:`ARENA_RECENT` ended), so a push stays bounded."""
    if state.spec.format != ARENA:
        return [g for g in state.games if g.round == state.round]
    ended = [g for g in state.games if g.over]
    recent = {id(g) for g in ended[-ARENA_RECENT:]}
    return [g for g in state.games if not g.over or id(g) in recent]


def round_games(state: State, round_: int) -> list[Game]:
    """The games of round ``round_`` (an arena: its page ``round_`` of :data:`ARENA_PAGE`
    games, in pairing order from 1)."""
    if state.spec.format != ARENA:
        return [g for g in state.games if g.round == round_]
    first = (max(round_, 1) - 1) * ARENA_PAGE
    return state.games[first : first + ARENA_PAGE]


def scores_of(row: GameRow, seats: int) -> tuple[list[float], bool]:
    """Each seat's score in a finished or aborted room, and whether it was a forfeit.

    Ranks ``[1, 2]`` score 1 and 0, a shared first rank a draw; an aborted room (nobody
    came) scores 0 for both, as a double forfeit."""
    result = row.result if isinstance(row.result, dict) else {}
    ranks = result.get("ranks")
    if row.status != "finished" or not isinstance(ranks, list) or len(ranks) != seats:
        return [0.0] * seats, True
    best = min(ranks)
    firsts = ranks.count(best)
    scores = [(1.0 / firsts if firsts < seats else 0.5) if r == best else 0.0 for r in ranks]
    return scores, row.reason in FORFEITS


async def forfeited(store: Store, row: GameRow) -> bool:
    """Whether a seat of the room was forfeited for not coming or being gone (its log
    holds a ``no_show`` or ``abandoned`` forfeit record)."""
    if row.reason in FORFEITS:
        return True
    actions = await store.actions(row.id)
    return any(a.action in FORFEIT_RECORDS for a in actions)


async def load_state(store: Store, row: TournamentRow) -> State:
    """A stored tournament's whole state: its row's state, preceded by its archived games
    (the append-only ``tournament_games`` table)."""
    state = msgspec.json.decode(row.state, type=State)
    if state.archived:
        rows = await store.tournament_games(row.id)
        done = [msgspec.json.decode(text, type=Game) for text in rows[: state.archived]]
        state.games = done + state.games
    return state


def stored_form(state: State) -> tuple[str, list[tuple[int, str]], int]:
    """What to store of ``state``: its JSON without the leading games that are over (the
    longest such prefix), those games not yet archived as ``(seq, JSON)`` rows, and the
    new archived count. So each save writes the games that ended once, and the state row
    stays as small as the games still open (a round, or an arena's games in progress)."""
    games = state.games
    upto = state.archived
    while upto < len(games) and games[upto].over:
        upto += 1
    rows = [(i, msgspec.json.encode(games[i]).decode()) for i in range(state.archived, upto)]
    kept = msgspec.structs.replace(state, games=games[upto:], archived=upto)
    return msgspec.json.encode(kept).decode(), rows, upto


def frame_of(state: State, table: list[Row], games: list[Game] | None = None) -> TournamentInfo:
    """A tournament as the ``tournament`` frame's ``tournament`` object, with ``games``
    (default: every game)."""
    spec = state.spec
    return TournamentInfo(
        id=state.id,
        name=spec.name,
        game=spec.game,
        options=dict(spec.options),
        format=spec.format,
        rated=spec.rated,
        host=spec.host,
        status=state.status,
        round=state.round,
        rounds=state.rounds,
        duration=spec.duration,
        starts_at=spec.starts_at,
        started=state.started,
        ends=state.ends,
        finished=state.finished,
        entrants=[
            TournamentEntrantInfo(
                player=e.player, name=e.name, withdrawn=e.withdrawn, house=e.house
            )
            for e in state.entrants
        ],
        games=[
            TournamentGameInfo(
                round=g.round,
                board=g.board,
                players=list(g.players),
                room=g.room,
                scores=g.scores,
                forfeit=g.forfeit,
            )
            for g in (state.games if games is None else games)
        ],
        standings=[msgspec.convert(msgspec.to_builtins(r), StandingInfo) for r in table],
    )


def summary_of(state: State) -> TournamentSummary:
    """A tournament as a line of the ``tournaments`` list."""
    return TournamentSummary(
        id=state.id,
        name=state.spec.name,
        game=state.spec.game,
        format=state.spec.format,
        status=state.status,
        rated=state.spec.rated,
        entrants=len(state.entrants),
        round=state.round,
        rounds=state.rounds,
        starts_at=state.spec.starts_at,
    )


class Director:
    """Every tournament of this server: create, join, leave, start, and run them."""

    def __init__(
        self,
        store: Store,
        lobby: Lobby,
        *,
        clock: Callable[[], float] = time.time,
        grace: float = GRACE,
        tick: float = 1.0,
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.clock = clock
        self.grace = grace
        self.tick = tick
        #: this node's id when several share the store (server.cluster): it directs the
        #: tournaments made on it and takes over those of nodes no longer ``alive``;
        #: None: alone, it directs them all
        self.node: str | None = None
        self.alive: Callable[[], Awaitable[set[str]]] | None = None
        #: ticks between two looks for tournaments of dead nodes, and for the ends of
        #: rooms another node holds
        self.sweep_every = 5
        #: sweeps between two full looks for orphaned tournaments while the living nodes
        #: stay the same (a node that came and went between two sweeps)
        self.rescan_every = 60
        self._sweeps = 0
        self._living: set[str] | None = None
        self._ticks = 0
        self.cores: dict[str, TournamentCore] = {}
        self._versions: dict[str, int] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._task: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[None]] = set()
        self._closed = False  #: after :meth:`close`: rooms that end now are not read
        #: told a tournament's id and frame object whenever it changes (the app pushes a
        #: ``tournament`` frame to its entrants and watchers, and feeds the bus)
        self.changed: Callable[[str, TournamentInfo], None] | None = None
        #: whether a player has a live connection (the app's); None: never withdraw
        self.online: Callable[[str], bool] | None = None
        self._away: dict[tuple[str, str], float] = {}
        self.max_open_per_host = MAX_OPEN_PER_HOST
        self.max_open = MAX_OPEN
        lobby.match_ended["tournament"] = self._room_ended

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Reload every tournament not over and start ticking."""
        if self.node is None:
            for row in await self.store.tournaments([CREATED, RUNNING], limit=100_000):
                self.cores[row.id] = TournamentCore(await load_state(self.store, row))
                self._versions[row.id] = row.version
            for tid in list(self.cores):
                await self._recover(tid)
        else:
            await self._take_over()
        self._task = asyncio.create_task(self._ticker(), name="tournament-director")

    async def close(self) -> None:
        """Stop ticking (the tournaments stay in the store). The results being read are
        cancelled and awaited, so none runs on after the store closes (one did once, in
        CI: "pool is closing", raised in a task nobody awaited); a room that ends later
        is left to the store, read again by whichever node directs next."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        pending = list(self._pending)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    async def _take_over(self) -> None:
        """(Several nodes.) Direct every tournament not over whose node is dead: claimed by
        compare-and-set on its version, so one living node only takes each. The store is
        read only when the living nodes changed since the last look (a node died or came),
        and once every :attr:`rescan_every` sweeps: a quiet sweep costs one ``alive``."""
        if self.node is None or self.alive is None:
            return
        living = await self.alive()
        self._sweeps += 1
        if living == self._living and self._sweeps % self.rescan_every:
            return  # (no node went away since the last look: nothing to take over)
        self._living = set(living)
        for row in await self.store.tournaments([CREATED, RUNNING], limit=100_000):
            if row.id in self.cores:
                continue
            state = msgspec.json.decode(row.state, type=State)
            if state.node in living and state.node != self.node:
                continue
            state.node = self.node
            text = msgspec.json.encode(state).decode()  # (its archived games stay archived)
            state = await load_state(self.store, row)
            state.node = self.node
            mine = TournamentRow(
                row.id, row.status, text, row.version + 1, row.created, row.updated
            )
            if not await self.store.save_tournament(mine, row.version):
                continue  # another node took it first
            log.info("tournament %s: directed by this node (%s) now", row.id, self.node)
            self.cores[row.id] = TournamentCore(state)
            self._versions[row.id] = mine.version
            await self._recover(row.id)

    async def _remote_ends(self, tid: str) -> None:
        """Results of rooms not in this node's memory (held by another node after a
        failover, or evicted): read from the games table."""
        core = self.cores.get(tid)
        if core is None:
            return
        changed = False
        for g in core.playing():
            room = g.room or ""
            if room in self.lobby.rooms:
                continue
            row = await self.store.game(room)
            if row is None or row.status in ("waiting", "playing"):
                continue
            scores, forfeit = scores_of(row, len(g.players))
            forfeit = forfeit or await forfeited(self.store, row)
            async with self._lock(tid):
                changed = (
                    core.result(room, scores, forfeit, row.finished or self.clock()) or changed
                )
        if changed:
            await self._commit(tid)

    async def _recover(self, tid: str) -> None:
        """After a restart: take the results of rooms that ended while nobody listened."""

        def settle(core: TournamentCore) -> None:
            for g in core.playing():
                assert g.room is not None
                room = self.lobby.rooms.get(g.room)
                if room is not None and room.state in ("waiting", "playing"):
                    continue
                pending.append(g)

        pending: list[Game] = []
        core = self.cores[tid]
        self._adopt(core)
        settle(core)
        for g in pending:
            row = await self.store.game(g.room or "")
            if row is None or row.status in ("waiting", "playing"):
                # the lobby rebuilds such a room when it is asked for: ask now
                await self._reload_room(g.room or "")
                continue
            scores, forfeit = scores_of(row, len(g.players))
            forfeit = forfeit or await forfeited(self.store, row)
            core.result(g.room or "", scores, forfeit, row.finished or self.clock())
        await self._commit(tid)

    def _adopt(self, core: TournamentCore) -> None:
        """Give a game still without a room the restored room opened for it just before a
        crash (its id not yet stored): same tournament, round and players in seat order."""
        known = {g.room for g in core.state.games if g.room is not None}
        for room in list(self.lobby.rooms.values()):
            settings = room.settings
            if settings.match != "tournament" or settings.match_ref != core.state.id:
                continue
            if room.id in known:
                continue
            seats = list(room.row.seats)
            for g in core.to_open():
                if g.players == seats:
                    core.opened(g, room.id, room.row.created)
                    known.add(room.id)
                    break

    async def _reload_room(self, room_id: str) -> None:
        """Have the lobby load a logged room (its end hook then reaches us), and launch
        its house bots if this load brought it here (as a cluster's takeover does)."""
        fresh = room_id not in self.lobby.rooms
        try:
            room = await self.lobby.get(room_id)
            if fresh and room is not None and room.state in ("waiting", "playing"):
                room.relaunch_bots()
        except Exception:
            log.warning("tournament room %s could not be reloaded", room_id, exc_info=True)

    async def _ticker(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            self._ticks += 1
            if self._ticks % self.sweep_every == 0:
                try:
                    await self._take_over()
                    for tid in list(self.cores):
                        await self._remote_ends(tid)
                except ClientError:
                    pass  # (let go: _save logged why)
                except (OSError, StoreError) as exc:
                    log.warning("tournaments: the sweep failed: %s", exc)
            for tid in list(self.cores):
                try:
                    await self._tick_one(tid)
                except ClientError:
                    pass  # (let go: _save logged why)
                except (OSError, StoreError) as exc:
                    # (still dirty: the next tick saves it again)
                    log.warning("tournament %s: could not be stored: %s", tid, exc)
                except Exception:
                    log.exception("tournament %s: tick failed", tid)

    async def _tick_one(self, tid: str) -> None:
        """Withdraw entrants gone for ``grace``, pass the time, and store the tournament
        if anything changed or a save failed before (its core is still dirty)."""
        core = self.cores.get(tid)
        if core is None:
            return
        async with self._lock(tid):  # (not while _commit is opening its rooms)
            now = self.clock()
            if self.online is not None and core.state.status == RUNNING:
                for e in core.state.entrants:
                    if e.house is not None or e.withdrawn:
                        continue
                    key = (tid, e.player)
                    if self.online(e.player):
                        self._away.pop(key, None)
                    elif now - self._away.setdefault(key, now) >= self.grace:
                        core.leave(e.player, now)
                        self._away.pop(key, None)
            core.tick(now)
            due = core.dirty or bool(core.to_open())
        if due:
            await self._commit(tid)

    # -- requests -------------------------------------------------------------------------

    async def create(self, host: Player, spec: Spec) -> TournamentInfo:
        """A new tournament hosted by ``host``: validated, stored, open for entries."""
        spec.host = host.id
        hosted = sum(c.state.spec.host == host.id for c in self.cores.values())
        if hosted >= self.max_open_per_host:
            raise ClientError(
                "bad_state",
                f"you host {hosted} tournaments not over, as many as a host may:"
                " wait for one to end, or cancel one",
            )
        if len(self.cores) >= self.max_open:
            raise ClientError("bad_state", "this server runs as many tournaments as it may")
        try:
            eng = find_engine(spec.game)
            config = eng.make_config(dict(spec.options))
            if config.seats != 2:
                config = eng.with_seats(config, 2)
        except ConfigError as exc:
            raise ClientError("bad_options", f"a tournament game has two seats: {exc}") from None
        spec.game = eng.name
        spec.options = config.to_options()
        if spec.rated and not rated_rules(eng.name, spec.options):
            raise ClientError(
                "bad_options", f"rated: these {eng.name} options are never rated (docs/ratings.md)"
            )
        try:
            core = TournamentCore.create(opaque(6), spec, self.clock())
        except TournamentError as exc:
            raise ClientError(ERROR_OF.get(exc.code, "bad_state"), exc.reason) from None
        core.state.node = self.node or ""
        tid = core.state.id
        self.cores[tid] = core
        await self._commit(tid)
        return self.view(tid)

    async def join(self, tid: str, player: Player, house: str | None = None) -> TournamentInfo:
        """Register ``player`` (or, by the host, house bot ``house``)."""
        if house is not None:
            core = self._core(tid)
            if core.state.spec.host != player.id:
                raise ClientError("not_host", "only the host registers house bots")
            plays = self.lobby.house_plays
            if plays is None or not plays(core.state.spec.game, house):
                raise ClientError(
                    "unsupported", f"no house bot {house!r} for {core.state.spec.game}"
                )
            player = await self.lobby.identities.house_bot(house)
        if self._core(tid).state.spec.rated and player.kind == "guest":
            raise ClientError(
                "account_required", "a rated tournament is for accounts and bot accounts"
            )
        rating = await self._seed_rating(tid, player.id)
        owner = player.owner if player.kind == "bot" else None
        return await self._do(
            tid, lambda c: c.join(player.id, player.name, rating, self.clock(), house, owner)
        )

    async def _seed_rating(self, tid: str, player: str) -> float:
        """The player's rating under the tournament's rule set (its best version's, for a
        bot), or 1500 when it has none: the entrants are seeded by it."""
        spec = self._core(tid).state.spec
        rules = rule_set(spec.game, spec.options)
        if rules is None:
            return DEFAULT_RATING
        rows = [
            r.rating.rating
            for r in await self.store.ratings(player)
            if r.key.game == spec.game and r.key.rules == rules and r.rating.games > 0
        ]
        return max(rows, default=DEFAULT_RATING)

    async def leave(self, tid: str, player: str) -> TournamentInfo:
        """Unregister or withdraw ``player``."""
        return await self._do(tid, lambda c: c.leave(player, self.clock()))

    async def begin(self, tid: str, player: str) -> TournamentInfo:
        """Start now (the host only)."""
        core = self._core(tid)
        if core.state.spec.host != player:
            raise ClientError("not_host", "only the tournament's host starts it")
        return await self._do(tid, lambda c: c.start(self.clock()))

    def host_of(self, tid: str) -> str:
        """The host of an open tournament."""
        return self._core(tid).state.spec.host

    def view(self, tid: str) -> TournamentInfo:
        """The tournament's frame object (state, standings, the current round's games)."""
        core = self._core(tid)
        return frame_of(core.state, core.table(), live_games(core.state))

    async def listing(self) -> list[TournamentSummary]:
        """Every tournament, newest first: a summary each."""
        out = []
        for row in await self.store.tournaments():
            core = self.cores.get(row.id)
            state = core.state if core else msgspec.json.decode(row.state, type=State)
            out.append(summary_of(state))
        return out

    async def fetch(self, tid: str, round_: int | None = None) -> TournamentInfo:
        """One tournament, also a finished one (read from the store): every game, or
        only round ``round_``'s (an arena's page)."""
        core = self.cores.get(tid)
        if core is None:
            row = await self.store.tournament(tid)
            if row is None:
                raise ClientError("no_such_tournament", f"no tournament {tid!r}")
            core = TournamentCore(await load_state(self.store, row))
        state = core.state
        games = None if round_ is None else round_games(state, round_)
        return frame_of(state, core.table(), games)

    # -- inside ---------------------------------------------------------------------------

    def _core(self, tid: str) -> TournamentCore:
        core = self.cores.get(tid)
        if core is None:
            raise ClientError(
                "no_such_tournament",
                f"no tournament {tid!r} is open for entries or running on this server node",
            )
        return core

    async def _do(self, tid: str, change: Callable[[TournamentCore], None]) -> TournamentInfo:
        """Apply ``change`` under the lock, store and tell; the frame object after it (also
        when the change ended the tournament)."""
        core = self._core(tid)
        async with self._lock(tid):
            try:
                change(core)
            except TournamentError as exc:
                raise ClientError(ERROR_OF.get(exc.code, "bad_state"), exc.reason) from None
        await self._commit(tid)
        return frame_of(core.state, core.table(), live_games(core.state))

    def _lock(self, tid: str) -> asyncio.Lock:
        return self._locks.setdefault(tid, asyncio.Lock())

    async def _commit(self, tid: str) -> None:
        """Store the tournament, open its paired games' rooms, store again, tell."""
        async with self._lock(tid):
            core = self.cores.get(tid)
            if core is None:
                return
            await self._save(core)
            for g in core.to_open():
                if not g.over:  # (an earlier game's _open may have withdrawn a player)
                    await self._open(core, g)
            if core.dirty:
                await self._save(core)
            if core.state.status in (FINISHED, CANCELLED):
                self.cores.pop(tid, None)
        if self.changed is not None:
            state = core.state
            self.changed(tid, frame_of(state, core.table(), live_games(state)))

    async def _save(self, core: TournamentCore) -> None:
        s = core.state
        version = self._versions.get(s.id)
        now = self.clock()
        text, games, archived = stored_form(s)
        row = TournamentRow(s.id, s.status, text, (version or 0) + 1, s.created, now)
        if not await self.store.save_tournament(row, version, games):
            # Another writer advanced it (a second node directing it by mistake): the
            # stored state wins; this node forgets its own and stops directing it.
            log.warning("tournament %s: changed by another writer; this node lets go", s.id)
            self.cores.pop(s.id, None)
            self._versions.pop(s.id, None)
            raise ClientError("bad_state", f"tournament {s.id} changed meanwhile; ask again")
        self._versions[s.id] = row.version
        s.archived = archived
        core.dirty = False

    async def _open(self, core: TournamentCore, g: Game) -> None:
        """Open ``g``'s room (called under the tournament's lock). A game that is over
        by the time the awaits return gets no room, and a room opened for it is aborted."""
        spec = core.state.spec
        seats: list[MatchSeat] = []
        for pid in g.players:
            e = core.entrant(pid)
            assert e is not None
            if e.house is not None:
                seats.append(HouseSeat(e.house))
            else:
                player = await self.lobby.identities.get(pid)
                if player is None:
                    core.leave(pid, self.clock())
                    return
                seats.append(player)
        if g.over:
            return
        try:
            room = await self.lobby.open_match(
                spec.game,
                dict(spec.options),
                seats,
                source="tournament",
                ref=core.state.id,
                settings=Settings(rated=spec.rated, public=True),
                round=g.round or None,
            )
        except ClientError as exc:
            log.warning("tournament %s: a room could not open: %s", core.state.id, exc)
            if not g.over:
                core.void(g, self.clock())
            return
        if g.scores is not None:  # (over meanwhile: g.over, unnarrowed)
            log.warning(
                "tournament %s: room %s opened for a game already over", core.state.id, room.id
            )
            await room.abort("decided_before_open")
            return
        core.opened(g, room.id, self.clock())

    def _room_ended(self, room_id: str, row: GameRow) -> None:
        tid = row.settings.get("match_ref") if isinstance(row.settings, dict) else None
        if self._closed or not isinstance(tid, str) or tid not in self.cores:
            return
        task = asyncio.get_running_loop().create_task(self._ended(tid, room_id, row))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _ended(self, tid: str, room_id: str, row: GameRow) -> None:
        core = self.cores.get(tid)
        if core is None:
            return
        g = core.game_of(room_id)
        if g is None:
            return
        scores, forfeit = scores_of(row, len(g.players))
        forfeit = forfeit or await forfeited(self.store, row)
        async with self._lock(tid):
            changed = core.result(room_id, scores, forfeit, row.finished or self.clock())
        if changed:
            try:
                await self._commit(tid)
            except ClientError:
                pass  # (let go: _save logged why)
            except (OSError, StoreError) as exc:
                # (the core stays dirty: the next tick stores it and pushes the change)
                log.warning("tournament %s: could not be stored: %s", tid, exc)

"""One tournament as a synchronous state machine: inputs and the time in, rooms to open out.

:class:`TournamentCore` holds a :class:`State` (a msgspec struct the director stores
after every change, its ended games appended to their own table, so a restarted server
rebuilds the tournament from the store)
and takes the inputs of docs/tournaments.md: ``join``, ``leave``, ``start``, ``opened``
(the director opened a game's room), ``result`` (a room ended) and ``tick`` (the time
passed: a start time reached, an arena's end). It never reads a clock or does I/O; the
games still to open are :meth:`TournamentCore.to_open`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import msgspec

from server.tournaments import formats
from server.tournaments.standings import (
    ARENA,
    FORMATS,
    ROUND_ROBIN,
    SWISS,
    Game,
    Row,
    standings,
)

CREATED = "created"
RUNNING = "running"
FINISHED = "finished"
CANCELLED = "cancelled"

#: Most rounds a Swiss may ask for, and the longest arena (seconds).
MAX_ROUNDS = 64
MAX_DURATION = 7 * 24 * 3600.0

#: Most entrants of one tournament.
MAX_ENTRANTS = 256

#: Seconds after which a tournament without ``starts_at`` that nobody started is cancelled.
EXPIRE_AFTER = 24 * 3600.0


class TournamentError(Exception):
    """An input the tournament refuses, with the reason (sent to the client as is)."""

    def __init__(self, reason: str, code: str = "bad_tournament") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class Spec(msgspec.Struct, kw_only=True):
    """What the host asked for in ``create_tournament``."""

    game: str
    options: dict[str, Any] = {}
    format: str
    rounds: int | None = None
    duration: float | None = None
    rated: bool = False
    starts_at: float | None = None
    name: str = ""
    host: str = ""


class Entrant(msgspec.Struct, kw_only=True):
    """A registered player."""

    player: str
    name: str
    rating: float = 1500.0
    joined: float = 0.0
    withdrawn: bool = False
    #: a house bot's kind (its seat is a house seat), None for a connected player
    house: str | None = None
    #: a bot account's owner (an account's id), None for anyone else
    owner: str | None = None


class State(msgspec.Struct, kw_only=True):
    """Everything a tournament is: stored (JSON, its ended games apart) after every change."""

    id: str
    spec: Spec
    #: the node that directs it (several nodes on one PostgreSQL database); "" alone
    node: str = ""
    status: str = CREATED
    created: float = 0.0
    started: float | None = None
    ends: float | None = None
    finished: float | None = None
    round: int = 0
    rounds: int = 0
    entrants: list[Entrant] = []
    games: list[Game] = []
    #: (as stored) how many of the first games are in the append-only table
    #: ``tournament_games`` instead of this state: the stored ``games`` are those after
    #: them (server.tournaments.director.load_state puts them back together)
    archived: int = 0


def check_spec(spec: Spec) -> None:
    """Refuse a spec no tournament can be run from (the game's options are the lobby's
    to check)."""
    if spec.format not in FORMATS:
        raise TournamentError(f"unknown format {spec.format!r}: one of {', '.join(FORMATS)}")
    if spec.format == SWISS and spec.rounds is not None and not 1 <= spec.rounds <= MAX_ROUNDS:
        raise TournamentError(f"a Swiss has 1 to {MAX_ROUNDS} rounds, not {spec.rounds}")
    bad_duration = spec.duration is None or not 0 < spec.duration <= MAX_DURATION
    if spec.format == ARENA and bad_duration:
        raise TournamentError("an arena needs a duration in seconds (at most a week)")


class TournamentCore:
    """One tournament's logic without I/O; build it from a :class:`State`."""

    def __init__(self, state: State) -> None:
        self.state = state
        #: changed since the director last stored it (set by every input that changes
        #: something, cleared by the director after a successful save; a failed save
        #: leaves it set, so the next tick saves again)
        self.dirty = False

    @classmethod
    def create(cls, tid: str, spec: Spec, now: float) -> TournamentCore:
        """A new tournament open for registration."""
        check_spec(spec)
        core = cls(State(id=tid, spec=spec, created=now))
        core.dirty = True
        return core

    # -- reading --------------------------------------------------------------------

    @property
    def fmt(self) -> str:
        """The format."""
        return self.state.spec.format

    def entrant(self, player: str) -> Entrant | None:
        """The entrant ``player``, if registered."""
        return next((e for e in self.state.entrants if e.player == player), None)

    def table(self) -> list[Row]:
        """The current standings."""
        s = self.state
        return standings(
            self.fmt,
            [(e.player, e.name) for e in s.entrants],
            s.games,
            [e.player for e in s.entrants if e.withdrawn],
        )

    def to_open(self) -> list[Game]:
        """Games paired but without a room yet: the director opens them."""
        return [g for g in self.state.games if g.room is None and not g.over]

    def playing(self) -> list[Game]:
        """Games whose room is open and not over."""
        return [g for g in self.state.games if g.room is not None and not g.over]

    def game_of(self, room: str) -> Game | None:
        """The game played in ``room``."""
        return next((g for g in self.state.games if g.room == room), None)

    # -- inputs ---------------------------------------------------------------------

    def join(
        self,
        player: str,
        name: str,
        rating: float,
        now: float,
        house: str | None = None,
        owner: str | None = None,
    ) -> None:
        """Register ``player``: before the start, or in a running arena. A rated
        tournament takes no two bots of one owner, nor an account and its own bot (they
        would be rated against each other: docs/ratings.md)."""
        s = self.state
        open_ = s.status == CREATED or (s.status == RUNNING and self.fmt == ARENA)
        if not open_:
            raise TournamentError("registration is closed", "tournament_closed")
        known = self.entrant(player)
        if known is not None:
            if known.withdrawn and s.status == RUNNING and self.fmt == ARENA:
                known.withdrawn = False
                self.dirty = True
                self._pair_arena(now)
            return
        if len(s.entrants) >= MAX_ENTRANTS:
            raise TournamentError(
                f"the tournament is full ({MAX_ENTRANTS} entrants)", "tournament_full"
            )
        if s.spec.rated:
            self._check_owner(player, owner)
        self.dirty = True
        s.entrants.append(
            Entrant(player=player, name=name, rating=rating, joined=now, house=house, owner=owner)
        )
        if s.status == RUNNING:
            self._pair_arena(now)

    def leave(self, player: str, now: float) -> None:
        """Unregister before the start; withdraw once running (games not yet played are
        forfeited, a game being played goes on)."""
        s = self.state
        e = self.entrant(player)
        if e is None or s.status in (FINISHED, CANCELLED):
            return
        self.dirty = True
        if s.status == CREATED:
            s.entrants.remove(e)
            return
        e.withdrawn = True
        for g in self.to_open():
            if player in g.players:
                self._forfeit(g, now)
        self._advance(now)

    def start(self, now: float) -> None:
        """Start: seed the entrants (rating, then registration) and pair the first round."""
        s = self.state
        if s.status != CREATED:
            raise TournamentError("the tournament has already started", "tournament_started")
        if len(s.entrants) < 2:
            raise TournamentError("a tournament needs at least 2 entrants", "bad_state")
        s.entrants.sort(key=lambda e: (-e.rating, e.joined))
        self.dirty = True
        s.status = RUNNING
        s.started = now
        n = len(s.entrants)
        if self.fmt == ROUND_ROBIN:
            s.rounds = len(formats.berger_rounds(n))
        elif self.fmt == SWISS:
            s.rounds = s.spec.rounds or max(1, math.ceil(math.log2(n)))
        else:
            s.ends = now + (s.spec.duration or 0.0)
        if self.fmt == ARENA:
            self._pair_arena(now)
        else:
            self._next_round(now)

    def opened(self, game: Game, room: str, now: float) -> None:
        """The director opened ``game``'s room."""
        game.room = room
        game.started = now
        self.dirty = True

    def result(self, room: str, scores: Sequence[float], forfeit: bool, now: float) -> bool:
        """A room ended with each seat's score; False if it is no game of this one."""
        g = self.game_of(room)
        if g is None or g.over:
            return False
        self.dirty = True
        g.scores = list(scores)
        g.forfeit = forfeit
        g.ended = now
        self._advance(now)
        return True

    def void(self, game: Game, now: float) -> None:
        """A game whose room could not be opened: a double forfeit (0 to both)."""
        self.dirty = True
        game.scores = [0.0] * len(game.players)
        game.forfeit = True
        game.ended = now
        self._advance(now)

    def tick(self, now: float) -> None:
        """The time passed: start at ``starts_at``, end an arena whose time is up, cancel
        a tournament without ``starts_at`` nobody started within :data:`EXPIRE_AFTER`."""
        s = self.state
        before = (s.status, s.round, len(s.games))
        if s.status == CREATED and s.spec.starts_at is not None and now >= s.spec.starts_at:
            if len(s.entrants) >= 2:
                self.start(now)
            else:
                s.status = CANCELLED
                s.finished = now
        elif s.status == CREATED and s.spec.starts_at is None and now - s.created >= EXPIRE_AFTER:
            s.status = CANCELLED  # (nobody started it within a day)
            s.finished = now
        self._advance(now)
        if (s.status, s.round, len(s.games)) != before:
            self.dirty = True

    def cancel(self, now: float) -> None:
        """The host cancels a tournament that has not started."""
        if self.state.status != CREATED:
            raise TournamentError("only a tournament not yet started can be cancelled", "bad_state")
        self.state.status = CANCELLED
        self.state.finished = now
        self.dirty = True

    # -- inside ---------------------------------------------------------------------

    def _check_owner(self, player: str, owner: str | None) -> None:
        for e in self.state.entrants:
            if owner is not None and e.owner == owner:
                raise TournamentError(
                    f"a rated tournament takes one bot per owner: {e.name} has the same"
                    " owner and is already entered",
                    "same_owner",
                )
            if owner is not None and e.player == owner:
                raise TournamentError(
                    f"a rated tournament never pairs a bot with its owner: {e.name} owns"
                    " this bot and is already entered",
                    "same_owner",
                )
            if e.owner is not None and e.owner == player:
                raise TournamentError(
                    f"a rated tournament never pairs an account with its own bot: {e.name}"
                    " is your bot and is already entered",
                    "same_owner",
                )

    def _forfeit(self, g: Game, now: float) -> None:
        gone = {e.player for e in self.state.entrants if e.withdrawn}
        g.scores = [0.0 if p in gone else 1.0 for p in g.players]
        g.forfeit = True
        g.ended = now

    def _advance(self, now: float) -> None:
        s = self.state
        if s.status != RUNNING:
            return
        if self.fmt == ARENA:
            if s.ends is not None and now < s.ends:
                self._pair_arena(now)
            elif not self.playing() and not self.to_open():
                self._finish(now)
            return
        if any(not g.over for g in s.games):
            return
        if s.round >= s.rounds or len([e for e in s.entrants if not e.withdrawn]) < 2:
            self._finish(now)
        else:
            self._next_round(now)

    def _finish(self, now: float) -> None:
        self.state.status = FINISHED
        self.state.finished = now

    def _next_round(self, now: float) -> None:
        s = self.state
        s.round += 1
        players = [e.player for e in s.entrants]
        if self.fmt == ROUND_ROBIN:
            pairs = formats.round_robin(players)[s.round - 1]
            paired = {p for pair in pairs for p in pair}
            byes = [p for p in players if p not in paired]
        else:
            pairs, bye = self._swiss()
            byes = [bye] if bye else []
        for board, pair in enumerate(pairs, 1):
            g = Game(round=s.round, board=board, players=list(pair))
            s.games.append(g)
            if any(self.entrant(p).withdrawn for p in pair):  # type: ignore[union-attr]
                self._forfeit(g, now)
        for p in byes:
            e = self.entrant(p)
            scores = [0.0] if e is None or e.withdrawn else [1.0]
            s.games.append(
                Game(round=s.round, board=0, players=[p], scores=scores, started=now, ended=now)
            )
        self._advance(now)

    def _swiss(self) -> tuple[list[formats.Pair], str | None]:
        s = self.state
        active = {e.player for e in s.entrants if not e.withdrawn}
        ranked = [r.player for r in self.table() if r.player in active]
        scores = {r.player: r.points for r in self.table()}
        met: dict[str, set[str]] = {p: set() for p in ranked}
        byes: dict[str, int] = {}
        whites: dict[str, int] = {}
        blacks: dict[str, int] = {}
        for g in s.games:
            if g.bye:
                byes[g.players[0]] = byes.get(g.players[0], 0) + 1
                continue
            if g.void:  # (a double forfeit is no meeting: they may still meet)
                continue
            a, b = g.players
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
            whites[a] = whites.get(a, 0) + 1
            blacks[b] = blacks.get(b, 0) + 1
        return formats.swiss_round(ranked, scores, met, byes, whites, blacks)

    def _pair_arena(self, now: float) -> None:
        s = self.state
        if s.status != RUNNING or s.ends is None or now >= s.ends:
            return
        busy = {p for g in s.games if not g.over for p in g.players}
        ranked = [r.player for r in self.table()]
        waiting = [
            p
            for p in ranked
            if p not in busy and not self.entrant(p).withdrawn  # type: ignore[union-attr]
        ]
        last: dict[str, str | None] = {}
        whites: dict[str, int] = {}
        blacks: dict[str, int] = {}
        for g in s.games:
            if len(g.players) == 2:
                a, b = g.players
                last[a], last[b] = b, a
                whites[a] = whites.get(a, 0) + 1
                blacks[b] = blacks.get(b, 0) + 1
        for a, b in formats.arena_pairs(waiting, last):
            pair = formats.colour(a, b, whites, blacks)
            s.games.append(Game(round=0, board=len(s.games) + 1, players=list(pair)))

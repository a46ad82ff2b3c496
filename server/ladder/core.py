"""The ranked bot ladder's pairing, as a sans-I/O state machine driven by the time.

Bots (bot accounts) and house bots join a *ladder*: one game under one rated rule set
(``perudo``/``piatnik``, ``kriegspiel``/``wild16``, ...). The ladder keeps opening rated
games between its members for as long as they are there. This module decides who plays
whom; :mod:`server.ladder.actor` carries its effects out (opens the rooms through
``Lobby.open_match``, reads ratings, tells the bots).

Inputs (methods of :class:`Ladder`, each taking ``now``): :meth:`~Ladder.join` (a member
joins or changes its ``max_concurrent``; 0 leaves), :meth:`~Ladder.leave`,
:meth:`~Ladder.drop` (a connection holding memberships closed), :meth:`~Ladder.opened` /
:meth:`~Ladder.failed` (the actor's answer to an :class:`Open`), :meth:`~Ladder.ended`
(a ladder game's room ended), :meth:`~Ladder.rate` (a member's rating changed) and
:meth:`~Ladder.tick`. Each returns effects: :class:`Open` (open a room with these
players) and :class:`Left` (a member left: tell it). :meth:`~Ladder.wake` says when the
next tick is due (a grace period running out).

The rules (docs/bots.md, "The ladder"):

- Members are bot accounts (kind ``bot``) and house bots (kind ``house``); a house bot is
  a permanent member (it never disconnects), unless the operator turns house bots off.
- Never a bot against itself, nor against another bot of the same owner: bots of one
  account never meet on the ladder. House bots all belong to the house (owner
  :data:`HOUSE`), so they never play each other there: they are there so that a bot
  always finds an opponent, not to burn the server's CPU among themselves.
- Two members play at most one ladder game against each other at a time.
- Concurrency: a member plays at most its ``max_concurrent`` games of its ladder; a bot
  account plays at most :attr:`Limits.per_bot` ladder games at once over all its ladders
  (its requests are clamped to it), and all bot accounts of one owner together at most
  :attr:`Limits.per_owner`. A house bot kind plays at most :attr:`Limits.per_house` at
  once in each ladder.
- A member whose last connection closed stays a member, unpaired, for
  :attr:`Limits.grace` seconds; a connection of the same bot that says ``ladder`` again
  in that time keeps it, else it leaves (:class:`Left` with reason ``"gone"``). Its
  games in progress go on (the room's own absence rules apply).
- Tables: members who want tables of different sizes (Perudo's ``seats``) are paired
  apart, each with those who want the same size.
- Fairness: the member that has waited longest for a game goes first (waiting since it
  joined, or since its last pairing, or since a game ended when it was at its limit);
  its opponents are the compatible free members with the closest ratings, ties to the
  one that waited longest, then to the smaller player id (so the order is deterministic).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field

#: The owner of every house bot.
HOUSE = "\x00house"


@dataclass(frozen=True, slots=True)
class Limits:
    """The ladder's limits (``umpire serve`` flags set them; docs/bots.md lists them)."""

    #: seconds a member whose connections all closed stays in the ladder
    grace: float = 60.0
    #: ladder games one bot account plays at once, over all its ladders
    per_bot: int = 8
    #: ladder games all the bot accounts of one owner play at once
    per_owner: int = 16
    #: ladder games one house bot kind plays at once in one ladder
    per_house: int = 4
    #: seconds the players of a room that could not be opened wait before another try
    retry: float = 5.0


@dataclass(frozen=True, slots=True)
class Entry:
    """Who joins a ladder, and how: ``player`` (a player id), its ``owner`` (an account
    id; :data:`HOUSE` for a house bot), ``version`` (what it is rated as), ``house`` (the
    house bot's kind, or None for a bot account), the ladder (``game``, ``rules``, and
    the room ``options`` its games use, ``seats`` players a table), the games it wants at
    once and its current ``rating``."""

    player: str
    owner: str
    game: str
    rules: str
    options: dict[str, object] = field(default_factory=dict, hash=False, compare=False)
    seats: int = 2
    max_concurrent: int = 1
    version: str = ""
    house: str | None = None
    rating: float = 1500.0


@dataclass(slots=True)
class Member:
    """A member of one ladder, as the pairing tracks it."""

    entry: Entry
    limit: int
    waiting_since: float
    links: set[Hashable] = field(default_factory=set)
    gone_at: float | None = None
    #: not paired before this time (its last room could not be opened)
    held_until: float | None = None
    games: set[int] = field(default_factory=set)

    @property
    def key(self) -> tuple[str, str, str]:
        """(player, game, rules): one membership per player and ladder."""
        return (self.entry.player, self.entry.game, self.entry.rules)

    @property
    def free(self) -> bool:
        """It is present and below its own limit."""
        return self.gone_at is None and len(self.games) < self.limit


# -- effects -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a game to open: the player and version, and the house bot kind (None
    for a bot account)."""

    player: str
    version: str
    house: str | None


@dataclass(frozen=True, slots=True)
class Open:
    """Open a rated room of ``game`` with ``options`` and these seats, in this order;
    answer with :meth:`Ladder.opened` or :meth:`Ladder.failed` quoting ``match``."""

    match: int
    game: str
    rules: str
    options: dict[str, object]
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class Left:
    """A member left its ladder (``reason``: ``"left"``, or ``"gone"`` after its grace)."""

    player: str
    game: str
    rules: str
    reason: str


Effect = Open | Left


@dataclass(slots=True)
class _Game:
    members: tuple[tuple[str, str, str], ...]
    room: str | None = None


class Ladder:
    """Every ladder of one server: memberships, the games they play, and the pairing."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.members: dict[tuple[str, str, str], Member] = {}
        self.games: dict[int, _Game] = {}
        self.rooms: dict[str, int] = {}
        self._next = 1
        #: ladder games in progress, by player (all its ladders) and by owner
        self._by_player: dict[str, int] = {}
        self._by_owner: dict[str, int] = {}
        #: each game's seats' owners (a member may have left before its game ends)
        self._owners: dict[int, tuple[str, ...]] = {}
        #: pairs (two player ids, sorted) playing each other now
        self._pairs: dict[tuple[str, str], int] = {}
        #: how many pairings were tried since the start (benchmarks count them)
        self.pairings = 0

    # -- inputs ----------------------------------------------------------------------

    def join(self, entry: Entry, now: float, link: Hashable | None = None) -> list[Effect]:
        """``entry`` joins its ladder (or changes its wish, version or rating), held by
        ``link`` (a connection; None for a house bot, which needs none). A
        ``max_concurrent`` of 0 leaves. Pairs at once."""
        key = (entry.player, entry.game, entry.rules)
        if entry.max_concurrent <= 0:
            return self.leave(entry.player, entry.game, entry.rules, now)
        cap = self.limits.per_house if entry.house is not None else self.limits.per_bot
        limit = min(entry.max_concurrent, cap)
        member = self.members.get(key)
        if member is None:
            member = Member(entry, limit, now)
            member.games = {n for n, g in self.games.items() if key in g.members}
            self.members[key] = member
        else:
            member.entry = entry
            member.limit = limit
            if member.gone_at is not None:
                member.gone_at = None
        if link is not None:
            member.links.add(link)
        return self.tick(now)

    def leave(self, player: str, game: str, rules: str, now: float) -> list[Effect]:
        """``player`` leaves one ladder (its games in progress go on)."""
        member = self.members.pop((player, game, rules), None)
        if member is None:
            return []
        return [Left(player, game, rules, "left")]

    def drop(self, link: Hashable, now: float) -> list[Effect]:
        """The connection ``link`` closed: each membership it held that no other
        connection holds starts its grace period."""
        for member in self.members.values():
            if link in member.links:
                member.links.discard(link)
                if not member.links and member.entry.house is None:
                    member.gone_at = now + self.limits.grace
        return self.tick(now)

    def opened(self, match: int, room: str) -> None:
        """The room of :class:`Open` ``match`` is open as ``room``."""
        game = self.games.get(match)
        if game is not None:
            game.room = room
            self.rooms[room] = match

    def failed(self, match: int, now: float) -> list[Effect]:
        """The room of :class:`Open` ``match`` could not be opened: free its seats; its
        players wait :attr:`Limits.retry` seconds before they are paired again (a server
        at its room limit is not asked again at once, in a loop)."""
        game = self.games.get(match)
        if game is not None:
            for key in game.members:
                member = self.members.get(key)
                if member is not None:
                    member.held_until = now + self.limits.retry
        return self._end(match, now)

    def ended(self, room: str, now: float) -> list[Effect]:
        """A ladder room ended (finished or aborted): free its seats and pair again."""
        match = self.rooms.pop(room, None)
        if match is None:
            return []
        return self._end(match, now)

    def adopt(
        self, room: str, game: str, rules: str, seats: Iterable[tuple[str, str]], now: float
    ) -> None:
        """A ladder room opened before a restart (or by another process) is playing:
        count it against its ``seats`` (player, owner) as if this ladder had opened it, so
        that no bot exceeds its limits while it ends."""
        if room in self.rooms:
            return
        seated = list(seats)
        match = self._next
        self._next += 1
        keys = tuple((player, game, rules) for player, _ in seated)
        self.games[match] = _Game(keys, room)
        self.rooms[room] = match
        self._owners[match] = tuple(owner for _, owner in seated)
        for (player, owner), key in zip(seated, keys, strict=True):
            self._by_player[player] = self._by_player.get(player, 0) + 1
            self._by_owner[owner] = self._by_owner.get(owner, 0) + 1
            member = self.members.get(key)
            if member is not None:
                member.games.add(match)
        players = [player for player, _ in seated]
        for pair in _pairs_of_ids(players):
            self._pairs[pair] = self._pairs.get(pair, 0) + 1

    def rate(self, player: str, game: str, rules: str, rating: float) -> None:
        """``player``'s rating in a ladder is now ``rating`` (after a rated game)."""
        member = self.members.get((player, game, rules))
        if member is not None:
            member.entry = _with_rating(member.entry, rating)

    def tick(self, now: float) -> list[Effect]:
        """Let the grace periods that ran out end their memberships, then pair."""
        effects: list[Effect] = []
        for key, member in list(self.members.items()):
            if member.gone_at is not None and member.gone_at <= now:
                del self.members[key]
                effects.append(Left(*key, "gone"))
            elif member.held_until is not None and member.held_until <= now:
                member.held_until = None
        effects.extend(self._pair(now))
        return effects

    def wake(self) -> float | None:
        """When :meth:`tick` should next run (the earliest end of a grace period or of a
        hold after a failed room), or None."""
        ends = [m.gone_at for m in self.members.values() if m.gone_at is not None]
        ends += [m.held_until for m in self.members.values() if m.held_until is not None]
        return min(ends) if ends else None

    # -- queries ---------------------------------------------------------------------

    def playing(self, player: str) -> int:
        """Ladder games ``player`` plays now, over all its ladders."""
        return self._by_player.get(player, 0)

    def of(self, link: Hashable) -> Iterable[Member]:
        """The memberships ``link`` holds."""
        return [m for m in self.members.values() if link in m.links]

    # -- pairing ---------------------------------------------------------------------

    def _can_play(self, member: Member) -> bool:
        entry = member.entry
        if not member.free or member.held_until is not None:
            return False
        if entry.house is not None:
            return True
        return (
            self._by_player.get(entry.player, 0) < self.limits.per_bot
            and self._by_owner.get(entry.owner, 0) < self.limits.per_owner
        )

    def _compatible(self, a: Entry, b: Entry) -> bool:
        if a.player == b.player or a.owner == b.owner:
            return False
        pair = (a.player, b.player) if a.player < b.player else (b.player, a.player)
        return pair not in self._pairs

    def _pair(self, now: float) -> list[Effect]:
        effects: list[Effect] = []
        ladders: dict[tuple[str, str, int], list[Member]] = {}
        for member in self.members.values():
            entry = member.entry
            ladders.setdefault((entry.game, entry.rules, entry.seats), []).append(member)
        for (game, rules, _), members in sorted(ladders.items()):
            while True:
                opened = self._pair_one(game, rules, members, now)
                if opened is None:
                    break
                effects.append(opened)
        return effects

    def _pair_one(self, game: str, rules: str, members: list[Member], now: float) -> Open | None:
        free = [m for m in members if self._can_play(m)]
        if len(free) < 2:
            return None
        free.sort(key=lambda m: (m.waiting_since, m.entry.player))
        for anchor in free:
            self.pairings += 1
            size = max(2, anchor.entry.seats)
            table = [anchor]
            rating = anchor.entry.rating
            rest = sorted(
                (m for m in free if m is not anchor),
                key=lambda m: (abs(m.entry.rating - rating), m.waiting_since, m.entry.player),
            )
            for other in rest:
                if len(table) == size:
                    break
                if all(self._compatible(other.entry, t.entry) for t in table):
                    table.append(other)
            if len(table) == size:
                return self._start(game, rules, table, now)
        return None

    def _start(self, game: str, rules: str, table: list[Member], now: float) -> Open:
        match = self._next
        self._next += 1
        self.games[match] = _Game(tuple(m.key for m in table))
        self._owners[match] = tuple(m.entry.owner for m in table)
        for member in table:
            entry = member.entry
            member.games.add(match)
            member.waiting_since = now
            self._by_player[entry.player] = self._by_player.get(entry.player, 0) + 1
            self._by_owner[entry.owner] = self._by_owner.get(entry.owner, 0) + 1
        for pair in _pairs_of(table):
            self._pairs[pair] = self._pairs.get(pair, 0) + 1
        anchor = table[0].entry
        seats = tuple(Seat(m.entry.player, m.entry.version, m.entry.house) for m in table)
        return Open(match, game, rules, dict(anchor.options), seats)

    def _end(self, match: int, now: float) -> list[Effect]:
        game = self.games.pop(match, None)
        if game is None:
            return []
        if game.room is not None:
            self.rooms.pop(game.room, None)
        owners = self._owners.pop(match, ())
        players = [key[0] for key in game.members]
        for key, owner in zip(game.members, owners, strict=True):
            member = self.members.get(key)
            if member is not None:
                if len(member.games) >= member.limit:
                    member.waiting_since = now
                member.games.discard(match)
            _decrement(self._by_player, key[0])
            _decrement(self._by_owner, owner)
        for pair in _pairs_of_ids(players):
            _decrement(self._pairs, pair)
        return self.tick(now)


def _with_rating(entry: Entry, rating: float) -> Entry:
    return Entry(
        entry.player,
        entry.owner,
        entry.game,
        entry.rules,
        entry.options,
        entry.seats,
        entry.max_concurrent,
        entry.version,
        entry.house,
        rating,
    )


def _pairs_of(table: list[Member]) -> list[tuple[str, str]]:
    return _pairs_of_ids([m.entry.player for m in table])


def _pairs_of_ids(players: list[str]) -> list[tuple[str, str]]:
    return [(a, b) if a < b else (b, a) for i, a in enumerate(players) for b in players[i + 1 :]]


def _decrement(counts: dict[str, int] | dict[tuple[str, str], int], key: object) -> None:
    value = counts.get(key, 0) - 1  # type: ignore[call-overload]
    if value > 0:
        counts[key] = value  # type: ignore[index]
    else:
        counts.pop(key, None)  # type: ignore[call-overload]

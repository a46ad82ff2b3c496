"""The pairing of seeks as a sans-I/O core (DESIGN.md: pairing is pure, like the room core).

:class:`Pairing` holds the open seeks by pool. Its inputs are a new seek (:meth:`add`), a
cancellation (:meth:`remove`), the store's list of open seeks (:meth:`sync`, how a node
learns of the others' seeks) and the time (:meth:`tick`); what it returns are
:class:`Match` es, whose seeks it has already let go. It never reads a clock: the actor
gives it the time (Unix seconds, since seeks outlive a process) and arms a timer for
:meth:`next_due`.

The rule (docs/matchmaking.md):

- A new seek is paired at once if it can be: its table is the new seek, then the pool's
  open seeks oldest first (a taken seek first of all), each joining if it fits every
  seek already at the table, until the table is full. Since every seek was tried against
  every older one when it came, no table is ever left that could be filled: for two
  seats, no two open seeks ever fit. In a rated pool two seeks of one owner (an account
  and its bot accounts, or two bots of one account) never share a table.
- When a seek's ``fill_after`` runs out (oldest deadline first), its table is made the
  same way from the open seeks that fit, and house bots take the seats left.

Each step looks at one pool once: the cost of a seek is linear in its pool's size, and
does not depend on the other pools (benchmarks/matchmaking.py).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass

from server.matchmaking.seeks import Seek


@dataclass(frozen=True, slots=True)
class Match:
    """A full table: its seeks (oldest first, the one that made it first of all when it
    is new) and how many seats house bots take."""

    seeks: tuple[Seek, ...]
    house: int = 0

    @property
    def game(self) -> str:
        """The game of the table."""
        return self.seeks[0].game


class Pairing:
    """The open seeks of one node's view, and the rule that pairs them."""

    def __init__(self) -> None:
        #: pool -> seek id -> seek, oldest first (insertion order)
        self._pools: dict[str, dict[str, Seek]] = {}
        self._by_id: dict[str, Seek] = {}
        #: (fill time, seek id): a lazy heap (entries of seeks gone are skipped)
        self._deadlines: list[tuple[float, str]] = []

    def __len__(self) -> int:
        return len(self._by_id)

    def __contains__(self, seek_id: object) -> bool:
        return seek_id in self._by_id

    def get(self, seek_id: str) -> Seek | None:
        """The open seek ``seek_id``, or ``None``."""
        return self._by_id.get(seek_id)

    def open(self, game: str | None = None) -> list[Seek]:
        """The open seeks (of ``game``), oldest first."""
        seeks = [s for s in self._by_id.values() if game is None or s.game == game]
        seeks.sort(key=lambda s: (s.created, s.id))
        return seeks

    # -- inputs ---------------------------------------------------------------------------

    def add(self, seek: Seek, now: float, first: str | None = None) -> list[Match]:
        """A new seek at time ``now``: return its match if it makes one (``first``: the
        seek it takes, tried before any other), else keep it open. A seek already past
        its fill deadline is filled at once."""
        if seek.id in self._by_id:
            raise ValueError(f"seek {seek.id} is open already")
        table = self._table(seek, first)
        if len(table) == seek.seats:
            self._drop(table[1:])
            return [Match(tuple(table))]
        self._keep(seek)
        return self.tick(now)

    def remove(self, seek_id: str) -> Seek | None:
        """A seek is gone (cancelled, or paired elsewhere); return it if it was open."""
        seek = self._by_id.get(seek_id)
        if seek is not None:
            self._drop([seek])
        return seek

    def sync(self, seeks: Iterable[Seek], now: float) -> list[Match]:
        """The open seeks are ``seeks`` (the store's list, the truth shared by every
        node): forget the others, take the new ones in order of age (each pairing as a
        new seek would) and fill what is due; return the matches."""
        wanted = {s.id: s for s in seeks}
        gone = [s.id for s in self._by_id.values() if s.id not in wanted]
        return self.apply(wanted.values(), gone, now)

    def apply(self, opened: Iterable[Seek], closed: Iterable[str], now: float) -> list[Match]:
        """What changed in the store since the last look (a cluster's poll): the seeks
        ``opened`` (new or reopened; those already open are skipped) and the ids of
        those ``closed`` (matched or cancelled elsewhere). New seeks pair in order of age,
        as :meth:`sync` does; return the matches."""
        self._drop([self._by_id[i] for i in closed if i in self._by_id])
        matches: list[Match] = []
        for seek in sorted(opened, key=lambda s: (s.created, s.id)):
            if seek.id in self._by_id:
                continue
            table = self._table(seek, None)
            if len(table) == seek.seats:
                self._drop(table[1:])
                matches.append(Match(tuple(table)))
            else:
                self._keep(seek)
        return matches + self.tick(now)

    def tick(self, now: float) -> list[Match]:
        """The time is ``now``: fill the tables whose seeks' deadlines have passed."""
        matches = []
        heap = self._deadlines
        while heap and heap[0][0] <= now:
            _, seek_id = heapq.heappop(heap)
            seek = self._by_id.get(seek_id)
            if seek is None:
                continue
            self._drop([seek])
            table = self._table(seek, None)
            self._drop(table[1:])
            matches.append(Match(tuple(table), house=seek.seats - len(table)))
        return matches

    def next_due(self) -> float | None:
        """When :meth:`tick` has something to do next (Unix time), or ``None``."""
        heap = self._deadlines
        while heap and heap[0][1] not in self._by_id:
            heapq.heappop(heap)
        return heap[0][0] if heap else None

    # -- the rule -------------------------------------------------------------------------

    def _table(self, seek: Seek, first: str | None) -> list[Seek]:
        """``seek``'s table from its pool's open seeks: ``first``, then oldest first, each
        joining if it fits everyone seated."""
        table = [seek]
        pool = self._pools.get(seek.pool)
        if not pool:
            return table
        candidates: Iterable[Seek] = pool.values()
        taken = pool.get(first) if first is not None else None
        if taken is not None:
            candidates = [taken, *(s for s in pool.values() if s is not taken)]
        full = seek.seats
        rated = seek.rated  # (one pool: one rating)
        for other in candidates:  # (one pool: the pools are equal, so not compared)
            if other.id == seek.id:
                continue
            player, rating, span = other.player, other.rating, other.range
            party = other.party() if rated else None
            for seated in table:
                if seated.player == player:
                    break
                if party is not None and party & seated.party():
                    break  # (rated: never two players of one owner)
                if rating is not None and seated.range is not None:
                    low, high = seated.range
                    if not low <= rating <= high:
                        break
                theirs = seated.rating
                if span is not None and theirs is not None and not span[0] <= theirs <= span[1]:
                    break
            else:
                table.append(other)
                if len(table) == full:
                    break
        return table

    def _keep(self, seek: Seek) -> None:
        self._pools.setdefault(seek.pool, {})[seek.id] = seek
        self._by_id[seek.id] = seek
        due = seek.fill_at()
        if due is not None:
            heapq.heappush(self._deadlines, (due, seek.id))

    def _drop(self, seeks: Iterable[Seek]) -> None:
        for seek in seeks:
            if self._by_id.pop(seek.id, None) is None:
                continue
            pool = self._pools[seek.pool]
            del pool[seek.id]
            if not pool:
                del self._pools[seek.pool]


__all__ = ["Match", "Pairing"]

"""What the expert needs to know about a table, as one immutable value.

:class:`TableView` is the input of :func:`bots.perudo.expert.advise`: a seat's dice, every
seat's dice count, this round's bids and the room's rules. The bot builds it from a
:class:`~bots.perudo.table.PerudoTable`; a hint service or the ``umpire advise`` supporter
mode builds it from what a player types in (:meth:`TableView.build`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bots.perudo.table import PerudoTable
from server.games.perudo_actions import BIDS, CALZA, DUDO, Bid, ordinary_raises, raises


@dataclass(frozen=True, slots=True)
class TableView:
    """One seat's knowledge of a Perudo round, enough to choose its action.

    ``counts[s]`` is seat ``s``'s dice (0 once out); ``bids`` are this round's bids in
    order as ``(seat, bid)``; ``palifico`` is the palifico seat of this round or ``None``;
    ``cap`` is the largest quantity a bid may name (the engine's ``seats x
    dice_per_player``); ``palifico_aces`` is the room's option of that name ("ordinary":
    in a palifico round aces are an ordinary, lowest face, with no halving or doubling).
    """

    seat: int
    dice: tuple[int, ...]
    counts: tuple[int, ...]
    bids: tuple[tuple[int, Bid], ...] = ()
    palifico: int | None = None
    calza: bool = False
    dice_per_player: int = 5
    cap: int = 0
    palifico_aces: str = "ordinary"

    def __post_init__(self) -> None:
        if not 0 <= self.seat < len(self.counts):
            raise ValueError(f"seat {self.seat} is not one of the {len(self.counts)} seats")
        if any(d not in range(1, 7) for d in self.dice):
            raise ValueError(f"dice are faces 1 to 6, not {list(self.dice)}")
        if len(self.dice) != self.counts[self.seat]:
            raise ValueError(
                f"seat {self.seat} holds {len(self.dice)} dice but its count is "
                f"{self.counts[self.seat]}"
            )
        for bidder, _ in self.bids:
            if not 0 <= bidder < len(self.counts):
                raise ValueError(f"a bid by seat {bidder}, which is not at this table")
        if self.cap == 0:
            object.__setattr__(self, "cap", len(self.counts) * self.dice_per_player)

    @classmethod
    def build(
        cls,
        seat: int,
        dice: Iterable[int],
        counts: Iterable[int],
        bids: Iterable[tuple[int, Bid | str]] = (),
        *,
        palifico: int | None = None,
        calza: bool = False,
        dice_per_player: int = 5,
        cap: int = 0,
        palifico_aces: str = "ordinary",
    ) -> TableView:
        """A view from plain values; bids may be text (``(2, "5x4")``)."""
        parsed = tuple((int(s), b if isinstance(b, Bid) else Bid.parse(b)) for s, b in bids)
        return cls(
            seat,
            tuple(dice),
            tuple(counts),
            parsed,
            palifico,
            calza,
            dice_per_player,
            cap,
            palifico_aces,
        )

    @classmethod
    def from_table(cls, table: PerudoTable, options: Mapping[str, Any]) -> TableView:
        """The view of a bot's :class:`PerudoTable` in a room with these ``options``."""
        assert table.seat is not None, "a seat's table, not a spectator's"
        return cls(
            table.seat,
            tuple(table.dice),
            tuple(table.counts),
            tuple(table.bids),
            table.palifico,
            bool(options.get("calza", False)),
            table.dice_per_player,
            table.seats * table.dice_per_player,
            str(options.get("palifico_aces", "ordinary")),
        )

    # -- derived facts ---------------------------------------------------------------

    @property
    def aces_wild(self) -> bool:
        """Aces are wild except in a palifico round."""
        return self.palifico is None

    @property
    def total(self) -> int:
        """Dice in play."""
        return sum(self.counts)

    @property
    def active(self) -> list[int]:
        """Seats still holding dice, in seat order."""
        return [s for s, n in enumerate(self.counts) if n > 0]

    @property
    def opponents(self) -> list[int]:
        """Other seats still holding dice."""
        return [s for s in self.active if s != self.seat]

    @property
    def last(self) -> tuple[int, Bid] | None:
        """The bid on the table and its bidder, if any."""
        return self.bids[-1] if self.bids else None

    def next_seat(self) -> int:
        """The seat that plays after this one (clockwise, skipping the eliminated)."""
        n = len(self.counts)
        for step in range(1, n + 1):
            candidate = (self.seat + step) % n
            if self.counts[candidate] > 0:
                return candidate
        return self.seat

    def legal_bids(self) -> list[Bid]:
        """Every bid this seat may make now, by the engine's rules (docs/perudo.md)."""
        last = self.last
        if last is None:
            faces: Sequence[int] = range(1, 7) if self.palifico is not None else range(2, 7)
            return [BIDS[q][f] for q in range(1, self.cap + 1) for f in faces]
        previous = last[1]
        if self.palifico is not None and self.counts[self.seat] != 1:
            return [BIDS[q][previous.face] for q in range(previous.quantity + 1, self.cap + 1)]
        if self.palifico is not None and self.palifico_aces == "ordinary":
            return ordinary_raises(previous, self.cap)
        return raises(previous, self.cap)

    def legal_actions(self) -> list[str]:
        """Every action text this seat may play now (bids, then dudo and calza)."""
        out = [str(b) for b in self.legal_bids()]
        if self.last is not None:
            out.append(str(DUDO))
            if self.calza:
                out.append(str(CALZA))
        return out

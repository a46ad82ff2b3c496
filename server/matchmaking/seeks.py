"""A seek: one player's standing offer to play a game, as a value type.

A seek names a game, its options (normalised by the engine: a preset and its spelled-out
options are one seek), whether the game is rated, the clock, how many seats the table
has, an optional rating range the *opponents'* ratings must fall in, and optionally
"fill the table with house bots after ``fill_after`` seconds". Seeks with equal
:attr:`Seek.pool` are for the same game; two of them *fit* when their players differ (in a
rated seek: and do not share an owner, see :attr:`Seek.owner`) and each one's rating is
inside the other's range.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

_encoder = msgspec.json.Encoder(order="sorted")

#: what a seek is: ``open`` (waiting to be paired), ``matched`` (its room is open) or
#: ``cancelled`` (by its player, or its player left)
STATUSES = ("open", "matched", "cancelled")


def pool_key(
    game: str,
    options: dict[str, Any],
    rated: bool,
    seats: int,
    clock: tuple[float, float] | None,
) -> str:
    """The key of the seeks that are for the same game: the same engine, normalised
    options, rating, seat count and clock (a canonical JSON text)."""
    return _encoder.encode([game, options, rated, seats, list(clock) if clock else None]).decode()


@dataclass(frozen=True, slots=True)
class Seek:
    """One open offer to play (see the module's docstring)."""

    id: str
    player: str
    game: str
    options: dict[str, Any]
    rated: bool
    seats: int
    created: float  # Unix time: fill deadlines count from it, across restarts and nodes
    clock: tuple[float, float] | None = None  # (base, increment) seconds
    rating: float | None = None  # the player's rating under these rules (None: unrated)
    range: tuple[float, float] | None = None  # the opponents' ratings it accepts
    fill_after: float | None = None  # seconds before house bots fill the empty seats
    #: a bot ladder's seek (server.ladder): paired by the ladder, not by seek pairing
    ladder: bool = False
    #: a ladder seek's number of games at once
    max_concurrent: int = 1
    #: the player's owner (a bot account's): a rated seek never pairs two players of one
    #: owner (an account and its bots, or two bots of one account)
    owner: str | None = field(default=None, compare=False)
    pool: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.pool:
            key = pool_key(self.game, self.options, self.rated, self.seats, self.clock)
            object.__setattr__(self, "pool", key)

    def accepts(self, rating: float | None) -> bool:
        """Whether an opponent of this ``rating`` is inside the seek's range (an unrated
        game, or a seek without a range, accepts anyone)."""
        if self.range is None or rating is None:
            return True
        low, high = self.range
        return low <= rating <= high

    def fits(self, other: Seek) -> bool:
        """Whether this seek and ``other`` may share a table."""
        return (
            self.pool == other.pool
            and self.player != other.player
            and self.accepts(other.rating)
            and other.accepts(self.rating)
            and not (self.rated and self.party() & other.party())
        )

    def party(self) -> set[str]:
        """The player and its owner (if any): two seeks whose parties meet are one owner's."""
        return {self.player} if not self.owner else {self.player, self.owner}

    def fill_at(self) -> float | None:
        """When house bots fill the table (Unix time), or ``None``."""
        return None if self.fill_after is None else self.created + self.fill_after

"""The state of a physical Perudo table as one player reports it to ``umpire advise``.

:class:`PhysicalTable` follows the rules of ``docs/perudo.md`` from what the player types:
the bids (checked as the engine checks them, Palifico and ``palifico_aces`` included), a
challenge (Dudo or calza) and how many dice counted for the bid; from those it works out
who loses or wins back a die, who starts the next round (the player whose dice changed, or
if out, the next player to the left), and when the next round is a Palifico round (the
first time a player is down to one die, unless only two players remain). Every line it
returns is in the table's language (:mod:`bots.advise_text`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bots.advise_text import dice as dice_words
from bots.advise_text import say
from server.games.base import ConfigError
from server.games.perudo import PerudoConfig
from server.games.perudo_actions import ACE, BIDS, Bid, ordinary_raises, raises


class TableError(ValueError):
    """A command that does not fit the table; its message says why, in the table's language."""


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge of the last bid: ``seat`` calls ``kind`` ("dudo" or "calza")."""

    seat: int
    kind: Literal["dudo", "calza"] | str


class PhysicalTable:
    """A physical table: dice counts, this round's bids, and the round to come."""

    def __init__(
        self,
        players: int,
        seat: int,
        dice_per_player: int = 5,
        *,
        calza: bool = False,
        palifico: bool = True,
        palifico_aces: str = "ordinary",
        lang: str = "en",
    ) -> None:
        if not 2 <= players <= 8:
            raise ConfigError("a Perudo table has 2 to 8 players")
        if not 0 <= seat < players:
            raise ConfigError(f"your seat is 0 to {players - 1}")
        PerudoConfig.from_options(
            {
                "seats": players,
                "dice_per_player": dice_per_player,
                "max_players": 8,
                "palifico_aces": palifico_aces,
            }
        )
        self.players = players
        self.seat = seat
        self.dice_per_player = dice_per_player
        self.calza = calza
        self.palifico_rounds = palifico
        self.palifico_aces = palifico_aces
        self.lang = lang
        self.counts = [dice_per_player] * players
        self.dice: list[int] = []
        self.bids: list[tuple[int, Bid]] = []
        self.palifico: int | None = None  #: this round's Palifico seat
        self.starter: int | None = None  #: who opens this round, when known
        self.pending: Challenge | None = None  #: a challenge waiting for its count
        self.palifico_used: set[int] = set()
        self._keep_palifico = False

    # -- seats ---------------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """The next seat to the left still holding dice."""
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.counts[candidate] > 0:
                return candidate
        return seat

    def active(self) -> list[int]:
        """Seats still holding dice."""
        return [s for s, n in enumerate(self.counts) if n > 0]

    def to_move(self) -> int | None:
        """Whose move it is, when known: after the last bid, or the round's starter."""
        if self.bids:
            return self.next_seat(self.bids[-1][0])
        return self.starter

    def _check_playing(self, seat: int | None = None) -> None:
        if len(self.active()) < 2:
            raise TableError(say(self.lang, "game_over"))
        if self.pending is not None:
            raise TableError(say(self.lang, "pending"))
        if seat is not None and self.counts[seat] == 0:
            raise TableError(say(self.lang, "seat_out", seat=seat))

    # -- a round -------------------------------------------------------------------------

    def new_round(self, dice: list[int]) -> list[str]:
        """A new round with our ``dice``."""
        self._check_playing()
        if not dice or any(not 1 <= d <= 6 for d in dice):
            raise TableError(say(self.lang, "bad_dice"))
        if len(dice) > self.dice_per_player:
            most = dice_words(self.dice_per_player, self.lang)
            raise TableError(say(self.lang, "too_many_dice", dice=most))
        self.dice = dice
        self.counts[self.seat] = len(dice)
        self.bids = []
        if not self._keep_palifico:
            self.palifico = None
        self._keep_palifico = False
        in_play = dice_words(sum(self.counts), self.lang)
        lines = [say(self.lang, "round", dice=dice, in_play=in_play)]
        if self.palifico is not None:
            lines.append(say(self.lang, "palifico_round", seat=self.palifico))
        if self.starter is not None:
            key = "you_open" if self.starter == self.seat else "opens"
            lines.append(say(self.lang, key, seat=self.starter))
        return lines

    def set_starter(self, seat: int) -> list[str]:
        """``seat`` opens this round."""
        self._check_playing(seat)
        self.starter = seat
        return [say(self.lang, "you_open" if seat == self.seat else "opens", seat=seat)]

    def declare_palifico(self, seat: int) -> list[str]:
        """This round (or, before its dice are known, the coming one) is ``seat``'s Palifico."""
        self._check_playing(seat)
        self.palifico = seat
        self._keep_palifico = not self.dice
        return [say(self.lang, "palifico_set", seat=seat)]

    def set_counts(self, counts: list[int]) -> None:
        """Every seat's dice count at once."""
        if len(counts) != self.players or any(not 0 <= c <= self.dice_per_player for c in counts):
            raise TableError(
                say(self.lang, "bad_counts", players=self.players, most=self.dice_per_player)
            )
        self.counts = counts
        if len(self.dice) != counts[self.seat]:
            self.dice = []

    def allowed(self, seat: int) -> list[Bid]:
        """Every bid ``seat`` may make now (the engine's rules, docs/perudo.md)."""
        cap = self.players * self.dice_per_player
        last = self.bids[-1][1] if self.bids else None
        if last is None:
            faces = range(1, 7) if self.palifico is not None else range(2, 7)
            return [BIDS[q][f] for q in range(1, cap + 1) for f in faces]
        if self.palifico is not None and self.counts[seat] != 1:
            return [BIDS[q][last.face] for q in range(last.quantity + 1, cap + 1)]
        if self.palifico is not None and self.palifico_aces == "ordinary":
            return ordinary_raises(last, cap)
        return raises(last, cap)

    def bid(self, seat: int, bid: Bid) -> None:
        """Record ``seat``'s ``bid``; refuse one the rules do not allow."""
        self._check_playing(seat)
        allowed = self.allowed(seat)
        if bid in allowed:
            self.bids.append((seat, bid))
            return
        cap = self.players * self.dice_per_player
        if bid.quantity > cap:
            raise TableError(say(self.lang, "too_high", bid=bid, cap=cap))
        if not self.bids:
            raise TableError(say(self.lang, "no_aces_opening"))
        lowest: dict[int, Bid] = {}
        for b in allowed:
            if b.face not in lowest or b.quantity < lowest[b.face].quantity:
                lowest[b.face] = b
        shown = " ".join(str(lowest[f]) for f in sorted(lowest, key=lambda f: (f == ACE, f)))
        last = self.bids[-1][1]
        raise TableError(say(self.lang, "no_raise", bid=bid, last=last, allowed=shown))

    # -- challenges and their results ----------------------------------------------------

    def challenge(self, challenge: Challenge, count: int | None) -> list[str]:
        """``challenge`` of the last bid; resolved now when ``count`` (the dice that
        counted for the bid) is given, else when :meth:`count` is called."""
        self._check_playing(challenge.seat)
        if not self.bids:
            raise TableError(say(self.lang, "nothing_to_doubt"))
        bidder, bid = self.bids[-1]
        if bidder == challenge.seat:
            raise TableError(say(self.lang, "own_bid", seat=bidder))
        if challenge.kind == "calza" and not self.calza:
            raise TableError(say(self.lang, "no_calza"))
        if count is not None:
            self._check_count(count)
        lines = [say(self.lang, challenge.kind, seat=challenge.seat, bid=bid)]
        if count is None:
            self.pending = challenge
            return [*lines, say(self.lang, "ask_count")]
        return lines + self._resolve(challenge, count)

    def count(self, count: int) -> list[str]:
        """The count of the challenge waiting for it."""
        if self.pending is None:
            raise TableError(say(self.lang, "no_challenge"))
        self._check_count(count)
        challenge, self.pending = self.pending, None
        return self._resolve(challenge, count)

    def _check_count(self, count: int) -> None:
        if not 0 <= count <= sum(self.counts):
            raise TableError(say(self.lang, "bad_count", most=sum(self.counts)))

    def _resolve(self, challenge: Challenge, count: int) -> list[str]:
        bidder, bid = self.bids[-1]
        lines = [say(self.lang, "counted", count=count)]
        seat = challenge.seat
        if challenge.kind == "dudo":
            true = count >= bid.quantity
            lines.append(say(self.lang, "bid_true" if true else "bid_false"))
            return lines + self.change(seat if true else bidder, -1)
        if count != bid.quantity:
            return [*lines, say(self.lang, "calza_wrong", seat=seat), *self.change(seat, -1)]
        if self.counts[seat] >= self.dice_per_player:
            return [*lines, say(self.lang, "calza_full", seat=seat), *self.change(seat, 0)]
        return [*lines, say(self.lang, "calza_right", seat=seat), *self.change(seat, 1)]

    def change(self, seat: int, delta: int) -> list[str]:
        """``seat`` loses (-1) or wins back (+1) a die; the round ends and the next one's
        starter and Palifico follow (docs/perudo.md)."""
        self._check_playing(seat if delta < 0 else None)
        before = self.counts[seat]
        self.counts[seat] = max(0, min(self.dice_per_player, before + delta))
        after = self.counts[seat]
        lines = []
        if delta < 0:
            lines.append(say(self.lang, "loses", seat=seat))
        key = "out" if after == 0 else "holds"
        lines.append(say(self.lang, key, seat=seat, dice=dice_words(after, self.lang)))
        self.bids, self.dice, self.palifico = [], [], None
        self._keep_palifico = True
        active = self.active()
        if len(active) == 1:
            self.starter = None
            key = "you_win" if active[0] == self.seat else "winner"
            return [*lines, say(self.lang, key, seat=active[0])]
        if before == 2 and after == 1 and seat not in self.palifico_used:
            self.palifico_used.add(seat)
            if self.palifico_rounds and len(active) > 2:
                self.palifico = seat
                lines.append(say(self.lang, "next_palifico", seat=seat))
        self.starter = seat if after > 0 else self.next_seat(seat)
        key = "you_start" if self.starter == self.seat else "next_starts"
        return [*lines, say(self.lang, key, seat=self.starter)]

"""The state of a physical Perudo table as one player reports it to ``umpire advise``.

:class:`PhysicalTable` follows the rules of ``docs/perudo.md`` from what the player types:
the bids (checked as the engine checks them, Palifico and ``palifico_aces`` included), a
challenge (Dudo or calza) and how many dice counted for the bid; from those it works out
who loses or wins back a die, who starts the next round (the player whose dice changed, or
if out, the next player to the left), and when the next round is a Palifico round (the
first time a player is down to one die, unless only two players remain). Every line it
returns is in the table's language (:mod:`bots.tools.advise_text`).

What the player knows is not kept here: it is a :class:`~bots.perudo.table.PerudoTable`
(``PhysicalTable.table``), the same model a bot keeps at an online table, fed the event
shapes the engine announces (``game_started``, ``round_started``, ``bid``, ``challenge``,
``reveal``, ``dice_changed``, ``game_over``; docs/perudo.md). The only difference: a
physical table announces a round before the player has reported their dice, so its
``round_started`` comes first without ``dice`` and then again with them. The expert reads
it through :meth:`TableView.from_table <bots.perudo.expert.view.TableView.from_table>`,
as the bot does. ``PhysicalTable`` itself does only a referee's work: check what is
typed, and from a reported count work out who loses or wins back a die, who starts next
and when a Palifico round comes.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Literal

from bots.perudo.table import PerudoTable
from bots.tools.advise_text import dice as dice_words
from bots.tools.advise_text import say
from server.games.base import ConfigError
from server.games.perudo import PerudoConfig
from server.games.perudo_actions import ACE, BIDS, Bid, count_matching, ordinary_raises, raises


class TableError(ValueError):
    """A command that does not fit the table; its message says why, in the table's language."""


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge of the last bid: ``seat`` calls ``kind`` ("dudo" or "calza")."""

    seat: int
    kind: Literal["dudo", "calza"] | str


@dataclass(frozen=True, slots=True)
class TableState:
    """Everything a :class:`PhysicalTable` knows, copied: what ``undo`` and a refused
    line restore (equal states compare equal)."""

    table: PerudoTable
    pending: Challenge | None
    palifico_used: frozenset[int]
    keep_palifico: bool
    announced: bool


class PhysicalTable:
    """A physical table's referee: it checks what the player reports and announces the
    events that follow to ``table``, the player's :class:`PerudoTable`."""

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
        #: what the player knows: dice counts, their dice, this round's bids, its starter
        #: and Palifico seat
        self.table = PerudoTable(seat=seat)
        options = {
            "seats": players,
            "dice_per_player": dice_per_player,
            "calza": calza,
            "palifico": palifico,
            "palifico_aces": palifico_aces,
        }
        self.table.observe({"type": "game_started", "seats": players, "options": options})
        self.pending: Challenge | None = None  #: a challenge waiting for its count
        self.palifico_used: set[int] = set()
        self._keep_palifico = False  #: the Palifico seat set holds for the coming round
        self._announced = False  #: a round is announced; the player's dice are not told yet

    # -- the whole state, to take back a refused line or an ``undo`` -----------------------

    def state(self) -> TableState:
        """A copy of everything the table knows."""
        return TableState(
            copy.deepcopy(self.table),
            self.pending,
            frozenset(self.palifico_used),
            self._keep_palifico,
            self._announced,
        )

    def restore(self, state: TableState) -> None:
        """Put the table back as it was when ``state`` was taken."""
        self.table = copy.deepcopy(state.table)
        self.pending = state.pending
        self.palifico_used = set(state.palifico_used)
        self._keep_palifico = state.keep_palifico
        self._announced = state.announced

    # -- what the player knows (kept in ``table``) ---------------------------------------

    @property
    def counts(self) -> list[int]:
        """Every seat's dice count."""
        return self.table.counts

    @counts.setter
    def counts(self, counts: list[int]) -> None:
        self.table.counts = list(counts)
        self.table.dice_left = self.table.counts[self.seat]

    @property
    def dice(self) -> list[int]:
        """The player's dice this round (empty until reported)."""
        return self.table.dice

    @property
    def bids(self) -> list[tuple[int, Bid]]:
        """This round's bids, oldest first."""
        return self.table.bids

    @property
    def palifico(self) -> int | None:
        """This round's (or, before the dice are known, the coming one's) Palifico seat."""
        return self.table.palifico

    @property
    def starter(self) -> int | None:
        """Who opens this round, when known."""
        return self.table.starter

    def _announce(self, event: dict[str, Any]) -> None:
        """Tell the player's table an event, as the engine would announce it."""
        self.table.observe(event)

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
        return self.table.to_move

    def _check_playing(self, seat: int | None = None) -> None:
        if len(self.active()) < 2:
            raise TableError(say(self.lang, "game_over"))
        if self.pending is not None:
            raise TableError(say(self.lang, "pending"))
        if seat is not None and self.counts[seat] == 0:
            raise TableError(say(self.lang, "seat_out", seat=seat))

    def _check_turn(self, seat: int) -> None:
        turn = self.to_move()
        if turn is not None and seat != turn:
            raise TableError(say(self.lang, "not_turn", seat=seat, turn=turn))

    # -- a round -------------------------------------------------------------------------

    def new_round(self, dice: list[int]) -> list[str]:
        """A new round with our ``dice``."""
        self._check_playing()
        if not dice or any(not 1 <= d <= 6 for d in dice):
            raise TableError(say(self.lang, "bad_dice"))
        if self.counts[self.seat] == 0:
            raise TableError(say(self.lang, "seat_out", seat=self.seat))
        if len(dice) != self.counts[self.seat]:
            held = dice_words(self.counts[self.seat], self.lang)
            raise TableError(say(self.lang, "wrong_dice", held=held, told=len(dice)))
        palifico = self.palifico if self._keep_palifico else None
        self._announce(
            {
                "type": "round_started",
                "round": self.table.round + (0 if self._announced else 1),
                "starter": self.starter,
                "palifico": palifico,
                "aces_wild": palifico is None,
                "seat": self.seat,
                "dice": list(dice),
            }
        )
        self._keep_palifico = self._announced = False
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
        if self.bids:
            raise TableError(say(self.lang, "start_late"))
        self.table.starter = seat  # a correction to the round's announcement
        if not self.bids:
            self.table.to_move = seat
        return [say(self.lang, "you_open" if seat == self.seat else "opens", seat=seat)]

    def declare_palifico(self, seat: int) -> list[str]:
        """This round (or, before its dice are known, the coming one) is ``seat``'s Palifico."""
        self._check_playing(seat)
        if self.counts[seat] != 1:
            held = dice_words(self.counts[seat], self.lang)
            raise TableError(say(self.lang, "palifico_one_die", seat=seat, held=held))
        if self.bids:
            raise TableError(say(self.lang, "palifico_late"))
        self.table.palifico = seat  # a correction to the round's announcement
        self.table.aces_wild = False
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
            self.table.dice = []

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
        self._check_turn(seat)
        allowed = self.allowed(seat)
        if bid in allowed:
            self._announce(
                {"type": "bid", "seat": seat, "bid": str(bid), "next": self.next_seat(seat)}
            )
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
        self._check_turn(challenge.seat)
        if challenge.kind == "calza" and not self.calza:
            raise TableError(say(self.lang, "no_calza"))
        if count is not None:
            self._check_count(count)
        lines = [say(self.lang, challenge.kind, seat=challenge.seat, bid=bid)]
        self._announce(
            {
                "type": "challenge",
                "kind": challenge.kind,
                "seat": challenge.seat,
                "bidder": bidder,
                "bid": str(bid),
            }
        )
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
        """A count fits the table: at most every die in play, and when the player's dice
        are known, at least those of theirs that count and at most those plus every other
        die."""
        if not 0 <= count <= sum(self.counts):
            raise TableError(say(self.lang, "bad_count", most=sum(self.counts)))
        if not self.dice or not self.bids:
            return
        bid = self.bids[-1][1]
        mine = count_matching(self.dice, bid, self.table.aces_wild)
        most = mine + sum(self.counts) - len(self.dice)
        if not mine <= count <= most:
            raise TableError(
                say(self.lang, "count_vs_dice", count=count, least=mine, most=most, bid=bid)
            )

    def _resolve(self, challenge: Challenge, count: int) -> list[str]:
        bidder, bid = self.bids[-1]
        lines = [say(self.lang, "counted", count=count)]
        seat = challenge.seat
        true = count >= bid.quantity
        self._announce(
            {
                "type": "reveal",
                "bid": str(bid),
                "aces_wild": self.table.aces_wild,
                "revealed": [],  # a physical table's cups are not reported, only the count
                "count": count,
                "complete": False,
                "bid_true": true,
            }
        )
        if challenge.kind == "dudo":
            lines.append(say(self.lang, "bid_true" if true else "bid_false"))
            return lines + self.change(seat if true else bidder, -1, "lost_dudo")
        if count != bid.quantity:
            lines.append(say(self.lang, "calza_wrong", seat=seat))
            return lines + self.change(seat, -1, "lost_calza")
        if self.counts[seat] >= self.dice_per_player:
            lines.append(say(self.lang, "calza_full", seat=seat))
            return lines + self.change(seat, 0, "won_calza")
        lines.append(say(self.lang, "calza_right", seat=seat))
        return lines + self.change(seat, 1, "won_calza")

    def change(self, seat: int, delta: int, reason: str = "reported") -> list[str]:
        """``seat`` loses (-1) or wins back (+1) a die for ``reason``; the round ends and
        the next one's starter and Palifico follow (docs/perudo.md)."""
        self._check_playing(seat if delta < 0 else None)
        before = self.counts[seat]
        if delta > 0 and reason == "reported" and before >= self.dice_per_player:
            raise TableError(say(self.lang, "full", seat=seat))
        after = max(0, min(self.dice_per_player, before + delta))
        changed: dict[str, Any] = {
            "type": "dice_changed",
            "seat": seat,
            "change": after - before,
            "reason": reason,
            "out": after == 0,
        }
        self._announce({**changed, "dice_left": after} if seat == self.seat else changed)
        lines = []
        if delta < 0:
            lines.append(say(self.lang, "loses", seat=seat))
        key = "out" if after == 0 else "holds"
        lines.append(say(self.lang, key, seat=seat, dice=dice_words(after, self.lang)))
        active = self.active()
        if len(active) == 1:
            self._end(active[0])
            key = "you_win" if active[0] == self.seat else "winner"
            return [*lines, say(self.lang, key, seat=active[0])]
        palifico = None
        if before == 2 and after == 1 and seat not in self.palifico_used:
            self.palifico_used.add(seat)
            if self.palifico_rounds and len(active) > 2:
                palifico = seat
                lines.append(say(self.lang, "next_palifico", seat=seat))
        starter = seat if after > 0 else self.next_seat(seat)
        self._announce(
            {
                "type": "round_started",
                "round": self.table.round + 1,
                "starter": starter,
                "palifico": palifico,
                "aces_wild": palifico is None,
            }
        )
        self._keep_palifico = self._announced = True
        key = "you_start" if starter == self.seat else "next_starts"
        return [*lines, say(self.lang, key, seat=starter)]

    def _end(self, winner: int) -> None:
        """The game is over: announce it, and no round follows (no cups, no bids)."""
        self._announce({"type": "game_over", "winners": [winner], "reason": "last_player_standing"})
        self.table.dice, self.table.bids = [], []
        self.table.palifico = self.table.starter = None

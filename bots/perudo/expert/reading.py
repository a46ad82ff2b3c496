"""What an opponent's bids say of its dice, as a probability: the hard level's reading.

Every opponent's hand is one of the multisets of its dice, a priori as fair dice roll
them. A bid is evidence through a *likelihood model* of its bidder: a bidder bids the
boldest quantity its own dice make likely enough, its threshold unknown and uniform, so
it bids quantity ``q`` of a face with the chance that exactly ``q`` dice count for it
from its own point of view (its dice known, every other die in play unseen:
``P(q true) - P(q + 1 true)``). Mixed in is an *uninformed* share, the chance that the
bid has nothing to do with its dice (a bluff, a forced raise): then the bid is as likely
whatever the hand, so no bid ever rules a hand out and a bluff is never impossible. The
product over the bidder's bids this round, the informed part to a *sharpness* (1: the
model as it is; more: a bidder whose threshold varies less), weighs the prior into a
posterior (Bayes' rule, exactly, over every hand: 252 for five dice).

Opponents are independent given the bids (a bid's likelihood depends on its bidder's
dice only), so the count of dice matching a bid is the sum of independent counts, one
per opponent, plus one's own matching dice: :meth:`Reading.probability` is exact for
the model, not sampled. An opponent that has not bid keeps the prior (a binomial count),
and with no opponent bids the reading is the uninformed binomial of
:mod:`bots.perudo.expert.model`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import numpy.typing as npt

from bots.perudo.expert.model import known_matching, match_chance, prob_exactly
from bots.perudo.expert.profiles import OpponentProfile
from bots.perudo.expert.view import TableView
from server.games.perudo_actions import ACE, Bid

Vector = npt.NDArray[np.float64]

#: The uninformed share of a bid at hard (see the module), and its sharpness; tuned on
#: ``benchmarks/perudo_search.py --calibration`` and in play (docs/perudo_expert.md).
UNINFORMED = 0.2
SHARPNESS = 2.0


@lru_cache(maxsize=16)
def hands(held: int) -> tuple[npt.NDArray[np.int64], Vector]:
    """Every multiset of ``held`` dice as counts by face (rows, faces 1..6 in columns
    0..5) and its prior probability with fair dice (read-only arrays)."""
    rows: list[list[int]] = []
    prior: list[float] = []
    for hand in combinations_with_replacement(range(6), held):
        counts = [hand.count(f) for f in range(6)]
        ways = factorial(held)
        for c in counts:
            ways //= factorial(c)
        rows.append(counts)
        prior.append(ways / 6**held)
    counts_array = np.array(rows, dtype=np.int64).reshape(len(rows), 6)
    prior_array = np.array(prior, dtype=np.float64)
    counts_array.setflags(write=False)
    prior_array.setflags(write=False)
    return counts_array, prior_array


@lru_cache(maxsize=256)
def matching(held: int, face: int, aces_wild: bool) -> npt.NDArray[np.int64]:
    """For every hand of :func:`hands`, how many of its dice count for ``face``."""
    counts, _ = hands(held)
    out = counts[:, face - 1].copy()
    if aces_wild and face != ACE:
        out += counts[:, ACE - 1]
    out.setflags(write=False)
    return out


def likelihood(
    bid: Bid,
    held: int,
    total: int,
    aces_wild: bool,
    uninformed: float,
    sharpness: float,
) -> Vector:
    """The likelihood of ``bid`` for each hand of ``held`` dice its bidder might hold,
    ``total`` dice in play (rows of :func:`hands`).

    The informed part, with ``m`` of the hand's dice counting for the bid: ``f(m) =
    P(exactly q - m of the unseen dice count) ** sharpness``, the bidder bidding the
    boldest quantity its dice make likely enough. The uninformed share ``u`` is the
    prior's average of ``f``: a bid that tells nothing, so that the posterior after one
    bid is ``(1 - u)`` times the informed one plus ``u`` times the prior. Every value
    is above zero when ``u`` is (every value is 1 when no hand could make the bid true:
    it tells nothing then).
    """
    if not 0.0 <= uninformed <= 1.0:
        raise ValueError(f"the uninformed share is between 0 and 1, not {uninformed}")
    if sharpness <= 0:
        raise ValueError(f"the sharpness is positive, not {sharpness}")
    unseen = total - held
    p = match_chance(bid, aces_wild)
    by_count = np.array(
        [prob_exactly(bid.quantity - m, unseen, p) for m in range(held + 1)],
        dtype=np.float64,
    )
    informed: Vector = by_count[matching(held, bid.face, aces_wild)] ** sharpness
    average = float(np.dot(hands(held)[1], informed))
    if average <= 0.0:
        return np.ones_like(informed)
    values: Vector = (1 - uninformed) * informed + uninformed * average
    return values


@lru_cache(maxsize=4096)
def posterior(
    held: int,
    total: int,
    aces_wild: bool,
    bids: tuple[Bid, ...],
    uninformed: float,
    sharpness: float,
) -> Vector:
    """The probability of each hand of ``held`` dice (rows of :func:`hands`) after its
    holder made ``bids`` this round (the prior when it made none). Read-only."""
    _, prior = hands(held)
    weights = prior.copy()
    for bid in bids:
        weights *= likelihood(bid, held, total, aces_wild, uninformed, sharpness)
        weights /= weights.sum()  # keep the scale: many bids never underflow
    weights.setflags(write=False)
    return weights


class Reading:
    """One seat's reading of a round: a posterior over every opponent's dice.

    ``uninformed`` gives the uninformed share of a bidder's bids by seat (from what is
    known of it); ``default`` the share of any other bidder. :meth:`probability` and
    :meth:`exact` answer for any bid.
    """

    __slots__ = ("_dist", "_opponents", "default", "sharpness", "uninformed", "view")

    def __init__(
        self,
        view: TableView,
        uninformed: Mapping[int, float] | None = None,
        *,
        default: float = UNINFORMED,
        sharpness: float = SHARPNESS,
    ) -> None:
        self.view = view
        self.uninformed = dict(uninformed or {})
        self.default = default
        self.sharpness = sharpness
        self._dist: dict[tuple[int, int], Vector] = {}
        self._opponents: dict[int, Vector] = {}

    def bids_of(self, seat: int) -> tuple[Bid, ...]:
        """The bids ``seat`` made this round, in order."""
        return tuple(b for s, b in self.view.bids if s == seat)

    def share(self, seat: int) -> float:
        """The uninformed share of ``seat``'s bids."""
        return self.uninformed.get(seat, self.default)

    def informed(self) -> list[int]:
        """The opponents whose bids this round tell something (they bid)."""
        return [s for s in self.view.opponents if self.bids_of(s)]

    def distribution(self, seat: int, face: int) -> Vector:
        """P(``seat`` holds exactly k dice counting for ``face``), k = 0..its dice."""
        key = (seat, face)
        cached = self._dist.get(key)
        if cached is not None:
            return cached
        view = self.view
        held = view.counts[seat]
        weights = posterior(
            held,
            view.total,
            view.aces_wild,
            self.bids_of(seat),
            self.share(seat),
            self.sharpness,
        )
        dist = np.bincount(
            matching(held, face, view.aces_wild), weights=weights, minlength=held + 1
        ).astype(np.float64)
        self._dist[key] = dist
        return dist

    def expected(self, seat: int, face: int) -> float:
        """How many of ``seat``'s dice are expected to count for ``face``."""
        dist = self.distribution(seat, face)
        return float(np.dot(dist, np.arange(len(dist))))

    def _all_opponents(self, face: int) -> Vector:
        """P(the opponents together hold exactly k dice counting for ``face``)."""
        cached = self._opponents.get(face)
        if cached is not None:
            return cached
        total: Vector = np.ones(1, dtype=np.float64)
        for seat in self.view.opponents:
            total = np.convolve(total, self.distribution(seat, face))
        self._opponents[face] = total
        return total

    def _need(self, bid: Bid) -> int:
        """How many of the opponents' dice must count for ``bid`` to make it true."""
        return bid.quantity - known_matching(self.view.dice, bid, self.view.aces_wild)

    def probability(self, bid: Bid) -> float:
        """P(``bid`` is true) given one's own dice and what the bids say."""
        need = self._need(bid)
        dist = self._all_opponents(bid.face)
        if need <= 0:
            return 1.0
        if need >= len(dist):
            return 0.0
        return float(min(1.0, max(0.0, dist[need:].sum())))

    def exact(self, bid: Bid) -> float:
        """P(the count for ``bid`` is exactly its quantity) (a winning calza)."""
        need = self._need(bid)
        dist = self._all_opponents(bid.face)
        if not 0 <= need < len(dist):
            return 0.0
        return float(dist[need])


def uninformed_share(profile: OpponentProfile) -> float:
    """The uninformed share of a known player's bids: :data:`UNINFORMED` for one who
    bluffs at the prior rate, more for a player known to bluff more (its ``trust``)."""
    return 1.0 - (1.0 - UNINFORMED) * profile.trust


def read_bids(view: TableView, profiles: Mapping[int, OpponentProfile]) -> Reading:
    """``view.seat``'s reading of the round, each known opponent's bids weighed by what
    is known of it (:func:`uninformed_share`)."""
    shares = {seat: uninformed_share(p) for seat, p in profiles.items()}
    return Reading(view, shares)

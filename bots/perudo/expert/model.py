"""The statistical model of the source: binomial probabilities of bids.

A bid is judged from what a seat knows: its own dice, the dice it has *inferred* for each
opponent (see :mod:`bots.perudo.expert.inference`), and how many dice are in play. Every
die it does not know matches a bid independently with probability 1/6, or 1/3 when aces
are wild and the bid is not on aces (the face or an ace). Known dice (own and inferred)
are counted exactly; the rest follow a binomial law.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from math import comb

from server.games.perudo_actions import ACE, Bid, count_matching


def match_chance(bid: Bid, aces_wild: bool) -> float:
    """The chance one unseen die counts for ``bid``: 1/3 with wild aces, else 1/6."""
    return 1 / 3 if aces_wild and not bid.is_aces else 1 / 6


@lru_cache(maxsize=65536)
def prob_at_least(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p); 1 when k <= 0 and 0 when k > n."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return min(1.0, sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1)))


@lru_cache(maxsize=65536)
def prob_exactly(k: int, n: int, p: float) -> float:
    """P(X == k) for X ~ Binomial(n, p); 0 outside 0..n."""
    if k < 0 or k > n:
        return 0.0
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def known_matching(known: Iterable[int], bid: Bid, aces_wild: bool) -> int:
    """How many of the ``known`` dice (own and inferred) count for ``bid``."""
    return count_matching(known, bid, aces_wild)


def bid_probability(bid: Bid, known: Iterable[int], total: int, aces_wild: bool) -> float:
    """The chance ``bid`` is true when ``known`` dice are certain and the rest of the
    ``total`` dice in play are unseen.

    This is the source's model: "count the dice of the bid's face you know of (X), then
    the chance that the other dice hold at least quantity - X of that face or aces",
    a binomial B(unseen, 1/3) (or 1/6 for aces and in palifico).
    """
    known = list(known)
    unseen = total - len(known)
    if unseen < 0:
        raise ValueError(f"{len(known)} known dice but only {total} in play")
    need = bid.quantity - known_matching(known, bid, aces_wild)
    return prob_at_least(need, unseen, match_chance(bid, aces_wild))


def exact_probability(bid: Bid, known: Iterable[int], total: int, aces_wild: bool) -> float:
    """The chance the count for ``bid`` is exactly its quantity (a winning calza)."""
    known = list(known)
    unseen = total - len(known)
    if unseen < 0:
        raise ValueError(f"{len(known)} known dice but only {total} in play")
    need = bid.quantity - known_matching(known, bid, aces_wild)
    return prob_exactly(need, unseen, match_chance(bid, aces_wild))


def is_impossible(bid: Bid, own: Iterable[int], total: int, aces_wild: bool) -> bool:
    """True when ``bid`` cannot be true whatever the unseen dice show: it asks for more
    dice than there are, or more than one's own matching dice plus every other die."""
    own = list(own)
    return bid.quantity > total or bid.quantity - known_matching(own, bid, aces_wild) > (
        total - len(own)
    )


def is_certain(bid: Bid, own: Iterable[int], aces_wild: bool) -> bool:
    """True when one's own dice alone make ``bid`` true."""
    return known_matching(own, bid, aces_wild) >= bid.quantity


def bluff_share(bid: Bid, own: Iterable[int], aces_wild: bool) -> float:
    """How much of a bid is a bluff for its bidder, from 0 to 1.

    The source calls bluffing "betting on dice one does not hold". We measure it as the
    share of one's own dice that do *not* back the bid's face: 0 when every die in hand
    counts for it, 1 when none does (a pure bluff). With no dice in hand it is 1.
    """
    own = list(own)
    if not own:
        return 1.0
    return 1.0 - known_matching(own, bid, aces_wild) / len(own)


def expected_count(bid: Bid, known: Iterable[int], total: int, aces_wild: bool) -> float:
    """The expected number of dice counting for ``bid`` (known ones plus the binomial mean)."""
    known = list(known)
    return known_matching(known, bid, aces_wild) + (total - len(known)) * match_chance(
        bid, aces_wild
    )


class Knowledge:
    """Known dice summarised by face, for fast repeated probabilities.

    Build one from a seat's own dice plus the dice it inferred; then :meth:`probability`
    and :meth:`exact` answer for any bid in constant time (the binomials are cached).
    """

    __slots__ = ("by_face", "size", "total")

    def __init__(self, known: Iterable[int], total: int) -> None:
        self.by_face = [0] * 7
        size = 0
        for die in known:
            self.by_face[die] += 1
            size += 1
        if size > total:
            raise ValueError(f"{size} known dice but only {total} in play")
        self.size = size
        self.total = total

    def matching(self, bid: Bid, aces_wild: bool) -> int:
        """Known dice counting for ``bid``."""
        if bid.is_aces or not aces_wild:
            return self.by_face[bid.face]
        return self.by_face[bid.face] + self.by_face[ACE]

    def probability(self, bid: Bid, aces_wild: bool) -> float:
        """The chance ``bid`` is true (see :func:`bid_probability`)."""
        need = bid.quantity - self.matching(bid, aces_wild)
        return prob_at_least(need, self.total - self.size, match_chance(bid, aces_wild))

    def exact(self, bid: Bid, aces_wild: bool) -> float:
        """The chance the count for ``bid`` is exactly its quantity."""
        need = bid.quantity - self.matching(bid, aces_wild)
        return prob_exactly(need, self.total - self.size, match_chance(bid, aces_wild))

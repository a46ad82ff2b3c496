"""Play one Perudo round out, fast, with every die known: the search's rollouts.

A :class:`Deal` is one possible truth of a round in progress (every seat's dice, sampled
by :mod:`bots.perudo.search.worlds`) with the round's public state (the last bid, the
palifico seat, the room's rules). :func:`play_out` plays it to its challenge with
perudo-simple's policy for every seat (:func:`simple_action`: the boldest bid still true
with probability at least 1/2 given the seat's own dice, otherwise dudo), each seat
seeing only its own dice, and returns the :class:`Result`. :func:`dice_share` is the
value the search maximises.

The policy is the one of :class:`bots.baseline.PerudoSimple`, computed per face instead of
over every legal bid (``tests/bots/test_perudo_search_rollout.py`` checks that both agree):
for each face the boldest such bid is its own matching dice plus the largest ``k`` with
``P(Binomial(unseen, p) >= k) >= 1/2``, kept if it is a legal raise.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bots.perudo.expert.model import prob_at_least
from server.games.perudo_actions import ACE, BIDS, Bid, count_matching, min_aces_after

DUDO = "dudo"
CALZA = "calza"


@dataclass(frozen=True, slots=True)
class Rules:
    """The room's rules a round depends on."""

    cap: int  #: the largest quantity a bid may name (seats x dice per player)
    dice_per_player: int  #: the most dice a seat may hold (a calza never gains past it)
    calza: bool = False
    palifico_aces: str = "ordinary"  #: "ordinary" or "wild_conversion" (docs/perudo.md)


@dataclass(frozen=True, slots=True)
class Deal:
    """One complete truth of a round in progress: every seat's dice, and whose turn it is.

    ``hands[s]`` are seat ``s``'s dice (empty once out); ``last`` is the bid on the table
    and its bidder; ``palifico`` is this round's palifico seat or ``None``.
    """

    hands: tuple[tuple[int, ...], ...]
    to_move: int
    last: tuple[int, Bid] | None
    palifico: int | None
    rules: Rules

    @property
    def aces_wild(self) -> bool:
        """Aces are wild except in a palifico round."""
        return self.palifico is None

    @property
    def total(self) -> int:
        """Dice in play."""
        return sum(len(h) for h in self.hands)

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise that still holds dice."""
        n = len(self.hands)
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if self.hands[candidate]:
                return candidate
        return seat


@dataclass(frozen=True, slots=True)
class Result:
    """How a round ended: ``seat`` lost a die (``change`` -1) or gained one (+1), or a
    calza at full dice changed nothing (0); ``bids`` were made in the rollout."""

    seat: int
    change: int
    bids: int


def _chance(face: int, aces_wild: bool) -> float:
    return 1 / 3 if aces_wild and face != ACE else 1 / 6


@lru_cache(maxsize=4096)
def boldest_extra(unseen: int, p: float) -> int:
    """The largest ``k`` with ``P(Binomial(unseen, p) >= k) >= 1/2`` (0 at least)."""
    k = 0
    while k < unseen and prob_at_least(k + 1, unseen, p) >= 0.5:
        k += 1
    return k


def lowest_quantities(
    previous: Bid | None, *, palifico: bool, one_die: bool, rules: Rules
) -> dict[int, int]:
    """For each face a seat may bid now, the smallest legal quantity (the engine's raising
    rules, docs/perudo.md); faces with none within ``rules.cap`` are left out."""
    out: dict[int, int] = {}
    if previous is None:
        for face in range(1 if palifico else 2, 7):
            out[face] = 1
    elif palifico and not one_die:
        out[previous.face] = previous.quantity + 1
    elif palifico and rules.palifico_aces == "ordinary":
        for face in range(1, 7):
            out[face] = previous.quantity + (0 if face > previous.face else 1)
    elif previous.face == ACE:
        out[ACE] = previous.quantity + 1
        for face in range(2, 7):
            out[face] = 2 * previous.quantity + 1
    else:
        out[ACE] = min_aces_after(previous)
        for face in range(2, 7):
            out[face] = previous.quantity + (0 if face > previous.face else 1)
    return {f: q for f, q in out.items() if q <= rules.cap}


def simple_action(hand: tuple[int, ...], deal: Deal, seat: int) -> str:
    """perudo-simple's action for ``seat`` holding ``hand``: the boldest legal bid true
    with probability >= 1/2 given its own dice (ties: the larger quantity, then the lower
    text), otherwise dudo (or, opening, the likeliest bid)."""
    wild = deal.aces_wild
    unseen = deal.total - len(hand)
    previous = None if deal.last is None else deal.last[1]
    lows = lowest_quantities(previous, palifico=not wild, one_die=len(hand) == 1, rules=deal.rules)
    best: tuple[float, int, str] | None = None
    fallback: tuple[float, str] | None = None
    for face, low in lows.items():
        matching = sum(1 for d in hand if d == face or (wild and d == ACE and face != ACE))
        p_face = _chance(face, wild)
        quantity = min(matching + boldest_extra(unseen, p_face), deal.rules.cap)
        if quantity < low:
            if previous is None:
                p_low = prob_at_least(low - matching, unseen, p_face)
                if fallback is None or p_low > fallback[0]:
                    fallback = (p_low, str(BIDS[low][face]))
            continue
        p = prob_at_least(quantity - matching, unseen, p_face)
        key = (p, -quantity, str(BIDS[quantity][face]))
        if best is None or key < best:
            best = key
    if best is not None:
        return best[2]
    if previous is not None:
        return DUDO
    assert fallback is not None, "an opening always has a bid"
    return fallback[1]


def resolve(deal: Deal, caller: int, kind: str) -> Result:
    """The challenge ``kind`` (dudo or calza) of ``caller`` on the bid on the table."""
    assert deal.last is not None, "a challenge needs a bid"
    bidder, bid = deal.last
    count = sum(count_matching(h, bid, deal.aces_wild) for h in deal.hands)
    if kind == DUDO:
        return Result(caller if count >= bid.quantity else bidder, -1, 0)
    if count == bid.quantity:
        full = len(deal.hands[caller]) >= deal.rules.dice_per_player
        return Result(caller, 0 if full else 1, 0)
    return Result(caller, -1, 0)


def play_out(deal: Deal, first: str) -> Result:
    """Play ``first`` (an action text) for the seat to move, then every seat's
    :func:`simple_action` until a challenge; return how the round ended."""
    action = first
    seat = deal.to_move
    bids = 0
    while True:
        if action in (DUDO, CALZA):
            result = resolve(deal, seat, action)
            return Result(result.seat, result.change, bids)
        bid = Bid.parse(action)
        bids += 1
        nxt = deal.next_seat(seat)
        deal = Deal(deal.hands, nxt, (seat, bid), deal.palifico, deal.rules)
        seat = nxt
        action = simple_action(deal.hands[seat], deal, seat)


def dice_share(counts: tuple[int, ...], seat: int, result: Result) -> float:
    """The search's value of a round's end for ``seat``: its share of the dice in play
    after the round (0 once it is out; 1 when it alone has dice: the game won)."""
    after = list(counts)
    after[result.seat] = max(0, after[result.seat] + result.change)
    total = sum(after)
    return after[seat] / total if total else 0.0

"""The actions the search weighs: dudo, calza, and a shortlist of raises.

None of them can certainly lose from the seat's own point of view: a bid its own dice
prove false (more than its matching dice plus every die it cannot see) is never listed,
nor a dudo its own dice prove wrong, nor a calza they rule out. The raises are, for each
face the seat may bid, its lowest legal quantity, one more, and the boldest quantity
still true with probability 1/2 from the seat's own dice (perudo-simple's choice), each
kept if it is at least :data:`FLOOR` likely from the seat's own dice.
"""

from __future__ import annotations

from bots.perudo.expert.model import bid_probability, is_certain, is_impossible, known_matching
from bots.perudo.expert.view import TableView
from bots.perudo.search.rollout import CALZA, DUDO, boldest_extra, lowest_quantities
from bots.perudo.search.worlds import rules_of
from server.games.perudo_actions import ACE, BIDS, Bid

#: Raises less likely than this (from the seat's own dice) are not weighed.
FLOOR = 0.05


def certainly_false(view: TableView, bid: Bid) -> bool:
    """Whether the seat's own dice prove ``bid`` false whatever the unseen dice show."""
    return is_impossible(bid, view.dice, view.total, view.aces_wild)


def dudo_cannot_win(view: TableView) -> bool:
    """Whether the seat's own dice alone make the bid on the table true."""
    return view.last is not None and is_certain(view.last[1], view.dice, view.aces_wild)


def calza_cannot_win(view: TableView) -> bool:
    """Whether the seat's own dice prove the count is not exactly the bid's quantity."""
    if view.last is None:
        return True
    bid = view.last[1]
    own = known_matching(view.dice, bid, view.aces_wild)
    return own > bid.quantity or certainly_false(view, bid)


def shortlist(view: TableView) -> list[str]:
    """The actions to weigh, as action texts: dudo and calza first (when allowed and not
    certainly lost), then the raises from the likeliest (by the seat's own dice) down.
    Never empty while the seat has a legal action that does not certainly lose."""
    out: list[str] = []
    if view.last is not None and not dudo_cannot_win(view):
        out.append(DUDO)
    if view.last is not None and view.calza and not calza_cannot_win(view):
        out.append(CALZA)
    rules = rules_of(view)
    lows = lowest_quantities(
        None if view.last is None else view.last[1],
        palifico=view.palifico is not None,
        one_die=len(view.dice) == 1,
        rules=rules,
    )
    unseen = view.total - len(view.dice)
    wild = view.aces_wild
    scored: dict[Bid, float] = {}
    for face, low in lows.items():
        chance = 1 / 3 if wild and face != ACE else 1 / 6
        matching = known_matching(view.dice, BIDS[1][face], wild)
        bold = matching + boldest_extra(unseen, chance)
        for quantity in {low, low + 1, bold}:
            if quantity < low or quantity > rules.cap:
                continue
            bid = BIDS[quantity][face]
            if certainly_false(view, bid):
                continue
            scored[bid] = bid_probability(bid, view.dice, view.total, wild)
    ranked = sorted(scored.items(), key=lambda kv: (-kv[1], kv[0].quantity, kv[0].face))
    bids = [str(b) for b, p in ranked if p >= FLOOR]
    if not bids and not out and ranked:
        bids = [str(ranked[0][0])]
    return out + bids

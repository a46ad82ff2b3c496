"""Shared by the Perudo bots' tests: hypothesis strategies of tables as one seat sees
them (``table_views``, with a random legal bidding history, and ``situations``), and
what certainly loses there (``certainly_loses``)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from bots.perudo.expert.model import is_certain, is_impossible, known_matching
from bots.perudo.expert.view import TableView
from server.games.perudo_actions import Bid


@st.composite
def table_views(draw: st.DrawFn, max_bids: int = 12) -> TableView:
    """2 to 6 seats with 0 to 5 dice each (at least two in play, the viewer among them),
    palifico or not, and up to ``max_bids`` legal bids by seats still in play."""
    seats = draw(st.integers(2, 6))
    counts = [draw(st.integers(0, 5)) for _ in range(seats)]
    seat = draw(st.integers(0, seats - 1))
    counts[seat] = max(1, counts[seat])
    if sum(1 for c in counts if c) < 2:
        counts[(seat + 1) % seats] = 1
    dice = draw(st.lists(st.integers(1, 6), min_size=counts[seat], max_size=counts[seat]))
    palifico = draw(st.sampled_from([None, seat]))
    view = TableView.build(seat, dice, counts, palifico=palifico)
    bidders = [s for s in range(seats) if counts[s]]
    for _ in range(draw(st.integers(0, max_bids))):
        legal = view.legal_bids()
        if not legal:
            break
        bid = legal[draw(st.integers(0, min(len(legal) - 1, 40)))]
        bidder = draw(st.sampled_from(bidders))
        view = TableView.build(seat, dice, counts, [*view.bids, (bidder, bid)], palifico=palifico)
    return view


def certainly_loses(view: TableView, action: str) -> bool:
    """Whether ``action`` loses whatever the dice ``view.seat`` cannot see show."""
    wild = view.aces_wild
    if action in ("dudo", "calza"):
        assert view.last is not None
        bid = view.last[1]
        if action == "dudo":
            return is_certain(bid, view.dice, wild)
        own = known_matching(view.dice, bid, wild)
        return own > bid.quantity or is_impossible(bid, view.dice, view.total, wild)
    return is_impossible(Bid.parse(action), view.dice, view.total, wild)


@st.composite
def situations(draw: st.DrawFn) -> TableView:
    """A round in progress, seen by one seat: any counts, dice, rules and bids (few dice,
    where certainty is common)."""
    seats = draw(st.sampled_from([2, 2, 2, 3, 3, 4, 6]))
    most = draw(st.sampled_from([1, 2, 2, 3, 5]))  # few dice: where certainty is common
    counts = [draw(st.integers(0, most)) for _ in range(seats)]
    seat = draw(st.integers(0, seats - 1))
    counts[seat] = max(1, counts[seat])
    if sum(1 for c in counts if c) < 2:
        counts[(seat + 1) % seats] = 1
    dice = draw(st.lists(st.integers(1, 6), min_size=counts[seat], max_size=counts[seat]))
    active = [s for s in range(seats) if counts[s]]
    palifico = draw(st.sampled_from([None, *active])) if len(active) > 2 else None
    calza = draw(st.booleans())
    kw: dict[str, Any] = {"palifico": palifico, "calza": calza}
    view = TableView.build(seat, dice, counts, **kw)
    order = active[active.index(seat) + 1 :] + active[: active.index(seat) + 1]
    n = draw(st.integers(0, 6))
    bidders = [order[(i - n) % len(order)] for i in range(n)]  # the last bid before us
    for bidder in bidders:
        legal = view.legal_bids()
        if not legal:
            break
        # mostly low bids, sometimes far above the dice on the table (legal up to the cap)
        bid = legal[draw(st.integers(0, min(len(legal) - 1, 30)))]
        view = TableView.build(seat, dice, counts, [*view.bids, (bidder, bid)], **kw)
    return view

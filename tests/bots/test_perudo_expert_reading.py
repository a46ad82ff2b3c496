"""Hard's reading of the bids: a likelihood model of the bidder and the exact posterior.

The likelihood is never zero and grows with the bidder's matching dice as the bid grows;
the reading agrees with brute-force Bayes over every ordered hand, reduces to the
uninformed binomial when no opponent has bid, and never makes a bid certain or
impossible that the seat's own dice leave open.
"""

from __future__ import annotations

from itertools import pairwise, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.perudo.expert.model import Knowledge, is_certain, is_impossible
from bots.perudo.expert.reading import (
    SHARPNESS,
    UNINFORMED,
    Reading,
    hands,
    likelihood,
    matching,
    posterior,
)
from bots.perudo.expert.view import TableView
from server.games.perudo_actions import Bid, count_matching
from tests.bots.perudo_views import table_views


def test_hands_are_every_multiset_with_its_fair_dice_prior() -> None:
    for held in range(6):
        counts, prior = hands(held)
        assert len({tuple(row) for row in counts.tolist()}) == len(counts)
        assert (counts.sum(axis=1) == held).all()
        assert prior.sum() == pytest.approx(1.0)
    assert len(hands(5)[0]) == 252


@settings(max_examples=200, deadline=None)
@given(
    held=st.integers(1, 5),
    others=st.integers(1, 25),
    face=st.integers(1, 6),
    wild=st.booleans(),
    uninformed=st.floats(0.001, 0.9),
    sharpness=st.floats(0.5, 3.0),
)
def test_the_likelihood_is_never_zero_and_monotone_in_the_bid(
    held: int,
    others: int,
    face: int,
    wild: bool,
    uninformed: float,
    sharpness: float,
) -> None:
    total = held + others
    means = []
    for quantity in range(1, total + 1):
        bid = Bid(quantity, face)
        values = likelihood(bid, held, total, wild, uninformed, sharpness)
        assert (values > 0).all()
        # the bidder's expected matching dice after this bid alone
        weights = hands(held)[1] * values
        means.append(float((weights * matching(held, face, wild)).sum() / weights.sum()))
    # A bolder bid says the bidder holds more dice counting for it, never fewer (the
    # binomial is log-concave: the likelihood ratio of more matching dice grows with q).
    assert all(b >= a - 1e-9 for a, b in pairwise(means))
    assert means[-1] > means[0] + 1e-6


def test_the_likelihood_rejects_bad_parameters() -> None:
    with pytest.raises(ValueError, match="uninformed share"):
        likelihood(Bid(3, 4), 5, 20, True, 1.5, 2.0)
    with pytest.raises(ValueError, match="sharpness"):
        likelihood(Bid(3, 4), 5, 20, True, 0.1, 0.0)


def _brute_force(view: TableView, bid: Bid) -> float:
    """P(bid true) by Bayes over every ordered hand of every opponent."""
    opponents = view.opponents
    num = den = 0.0
    for deal in product(*(product(range(1, 7), repeat=view.counts[s]) for s in opponents)):
        weight = 1.0
        for seat, hand in zip(opponents, deal, strict=True):
            counts, _ = hands(len(hand))
            row = [hand.count(f) for f in range(1, 7)]
            index = next(i for i, r in enumerate(counts.tolist()) if r == row)
            for made in (b for s, b in view.bids if s == seat):
                values = likelihood(
                    made, len(hand), view.total, view.aces_wild, UNINFORMED, SHARPNESS
                )
                weight *= float(values[index])
        den += weight
        dice = list(view.dice) + [d for hand in deal for d in hand]
        if count_matching(dice, bid, view.aces_wild) >= bid.quantity:
            num += weight
    return num / den


@pytest.mark.parametrize(
    ("dice", "counts", "bids", "palifico"),
    [
        ([4, 1], [2, 2, 1], [(1, "2x4"), (2, "3x4")], None),
        ([6], [1, 3], [(1, "2x5"), (0, "3x5"), (1, "4x5")], None),
        ([2, 3], [2, 2, 2], [(2, "1x1"), (1, "3x6")], None),
        ([3, 3], [2, 3], [(1, "2x3")], 1),
    ],
)
def test_the_reading_is_bayes_over_every_hand(
    dice: list[int], counts: list[int], bids: list[tuple[int, str]], palifico: int | None
) -> None:
    view = TableView.build(0, dice, counts, bids, palifico=palifico)
    reading = Reading(view)
    for bid in [*view.legal_bids()[:30], Bid(1, 1), Bid(2, 6), Bid(3, 3)]:
        assert reading.probability(bid) == pytest.approx(_brute_force(view, bid), abs=1e-9)


def test_with_no_opponent_bid_the_reading_is_the_uninformed_binomial() -> None:
    for view in (
        TableView.build(0, [5, 5, 1, 2, 3], [5, 5, 5, 5]),
        TableView.build(1, [2, 6], [3, 2, 4], [(1, "3x2")]),  # only our own bid
        TableView.build(0, [3], [1, 2, 2], palifico=0),
    ):
        reading = Reading(view)
        known = Knowledge(view.dice, view.total)
        assert reading.informed() == []
        for bid in view.legal_bids()[:60]:
            assert reading.probability(bid) == pytest.approx(
                known.probability(bid, view.aces_wild), abs=1e-9
            )
            assert reading.exact(bid) == pytest.approx(known.exact(bid, view.aces_wild), abs=1e-9)


def test_a_bold_bid_reads_as_more_dice_than_a_timid_one() -> None:
    timid = Reading(TableView.build(0, [2, 3, 4, 5, 6], [5, 5], [(1, "3x4")]))
    bold = Reading(TableView.build(0, [2, 3, 4, 5, 6], [5, 5], [(1, "6x4")]))
    assert bold.expected(1, 4) > timid.expected(1, 4)
    assert bold.probability(Bid(5, 4)) > timid.probability(Bid(5, 4))
    # never a certainty: even the bold bidder may be bluffing
    assert 0 < bold.distribution(1, 4)[0] < 1


@settings(max_examples=150, deadline=None)
@given(view=table_views(max_bids=10))
def test_the_reading_is_a_probability_never_a_certainty(view: TableView) -> None:
    reading = Reading(view)
    wild = view.aces_wild
    for seat in view.opponents:
        for face in range(1, 7):
            dist = reading.distribution(seat, face)
            assert dist.sum() == pytest.approx(1.0)
            assert (dist > 0).all()  # every count of matching dice stays possible
    for bid in view.legal_bids()[:80]:
        p = reading.probability(bid)
        if is_impossible(bid, view.dice, view.total, wild):
            assert p == 0.0
        elif is_certain(bid, view.dice, wild):
            assert p == 1.0
        else:
            assert 0.0 < p < 1.0
        assert 0.0 <= reading.exact(bid) <= 1.0
        # P(q true) - P(q + 1 true) is the chance of exactly q
        if bid.quantity < view.total:
            step = p - reading.probability(Bid(bid.quantity + 1, bid.face))
            assert step == pytest.approx(reading.exact(bid), abs=1e-9)


def test_the_posterior_is_cached_and_read_only() -> None:
    bids = (Bid(3, 4), Bid(5, 4))
    first = posterior(5, 20, True, bids, UNINFORMED, SHARPNESS)
    assert posterior(5, 20, True, bids, UNINFORMED, SHARPNESS) is first
    with pytest.raises(ValueError):
        first[0] = 1.0

"""The probability model against exact enumeration and the source's worked examples."""

from __future__ import annotations

import itertools
from math import comb, isclose

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots.perudo.expert.model import (
    Knowledge,
    bid_probability,
    bluff_share,
    exact_probability,
    expected_count,
    is_certain,
    is_impossible,
    match_chance,
    prob_at_least,
    prob_exactly,
)
from server.games.perudo_actions import Bid, count_matching


def enumerate_probability(bid: Bid, own: list[int], unseen: int, wild: bool) -> float:
    """P(bid) by enumerating every roll of the unseen dice."""
    hits = 0
    for roll in itertools.product(range(1, 7), repeat=unseen):
        if count_matching(own + list(roll), bid, wild) >= bid.quantity:
            hits += 1
    outcomes: int = 6**unseen
    return hits / outcomes


def enumerate_exact(bid: Bid, own: list[int], unseen: int, wild: bool) -> float:
    hits = 0
    for roll in itertools.product(range(1, 7), repeat=unseen):
        if count_matching(own + list(roll), bid, wild) == bid.quantity:
            hits += 1
    outcomes: int = 6**unseen
    return hits / outcomes


@pytest.mark.parametrize("unseen", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("wild", [True, False])
@pytest.mark.parametrize("own", [[], [1], [4, 4], [1, 3, 6]])
def test_probability_matches_exact_enumeration(unseen: int, wild: bool, own: list[int]) -> None:
    total = len(own) + unseen
    for quantity in range(1, total + 2):
        for face in range(1, 7):
            bid = Bid(quantity, face)
            expected = enumerate_probability(bid, own, unseen, wild)
            assert isclose(bid_probability(bid, own, total, wild), expected, abs_tol=1e-12)
            exact = enumerate_exact(bid, own, unseen, wild)
            assert isclose(exact_probability(bid, own, total, wild), exact, abs_tol=1e-12)


def test_source_example_three_players() -> None:
    # 3 players x 5 dice; the second holds [4 2 3 5 5] and hears "at least 3 fours": it
    # needs 2 more among the 10 other dice, B(10, 2/6).
    p = bid_probability(Bid(3, 4), [4, 2, 3, 5, 5], 15, aces_wild=True)
    by_hand = 1 - (2 / 3) ** 10 - 10 * (1 / 3) * (2 / 3) ** 9
    assert isclose(p, by_hand)
    assert round(p, 4) == 0.8960


def test_source_example_marco() -> None:
    # Marco holds two 4s, a 5, a 2 and an ace among 30 dice: eight 4s is a good bet,
    # nine a riskier one.
    own = [4, 4, 5, 2, 1]
    eight = bid_probability(Bid(8, 4), own, 30, aces_wild=True)
    nine = bid_probability(Bid(9, 4), own, 30, aces_wild=True)
    assert eight > nine
    assert eight > 0.9
    assert isclose(eight, prob_at_least(5, 25, 1 / 3))


def test_source_example_eleven_fours_impossible_and_certain() -> None:
    assert is_impossible(Bid(31, 4), [], 30, aces_wild=True)
    # Holding no 4s nor aces, 11 fours among 15 dice needs 11 of the 10 others.
    assert is_impossible(Bid(11, 4), [2, 3, 5, 6, 6], 15, aces_wild=True)
    assert not is_impossible(Bid(10, 4), [2, 3, 5, 6, 6], 15, aces_wild=True)
    assert is_certain(Bid(3, 4), [4, 1, 4, 2, 2], aces_wild=True)
    assert not is_certain(Bid(3, 4), [4, 1, 4, 2, 2], aces_wild=False)


def test_match_chance_and_palifico() -> None:
    assert match_chance(Bid(3, 4), aces_wild=True) == 1 / 3
    assert match_chance(Bid(3, 1), aces_wild=True) == 1 / 6
    assert match_chance(Bid(3, 4), aces_wild=False) == 1 / 6
    # In palifico an ace in hand does not count for fours.
    assert bid_probability(Bid(1, 4), [1], 1, aces_wild=False) == 0.0
    assert bid_probability(Bid(1, 4), [1], 1, aces_wild=True) == 1.0


def test_binomial_helpers_by_hand() -> None:
    assert prob_at_least(0, 5, 0.5) == 1.0
    assert prob_at_least(6, 5, 0.5) == 0.0
    assert isclose(prob_at_least(1, 2, 1 / 3), 1 - (2 / 3) ** 2)
    assert isclose(prob_exactly(2, 4, 1 / 6), comb(4, 2) * (1 / 6) ** 2 * (5 / 6) ** 2)
    assert prob_exactly(-1, 4, 0.5) == 0.0


def test_bluff_share_and_expected_count() -> None:
    assert bluff_share(Bid(4, 5), [5, 5, 1, 2, 3], aces_wild=True) == pytest.approx(0.4)
    assert bluff_share(Bid(4, 6), [5, 5, 2, 2, 3], aces_wild=True) == 1.0
    assert bluff_share(Bid(4, 6), [], aces_wild=True) == 1.0
    assert expected_count(Bid(4, 5), [5, 1], 8, aces_wild=True) == pytest.approx(2 + 6 / 3)


def test_too_many_known_dice_is_an_error() -> None:
    with pytest.raises(ValueError, match="known dice"):
        bid_probability(Bid(1, 2), [2, 2, 2], 2, aces_wild=True)
    with pytest.raises(ValueError, match="known dice"):
        Knowledge([2, 2, 2], 2)


@given(
    known=st.lists(st.integers(1, 6), max_size=12),
    extra=st.integers(0, 20),
    quantity=st.integers(1, 35),
    face=st.integers(1, 6),
    wild=st.booleans(),
)
def test_knowledge_agrees_with_the_functions(
    known: list[int], extra: int, quantity: int, face: int, wild: bool
) -> None:
    total = len(known) + extra
    bid = Bid(quantity, face)
    k = Knowledge(known, total)
    assert k.probability(bid, wild) == bid_probability(bid, known, total, wild)
    assert k.exact(bid, wild) == exact_probability(bid, known, total, wild)
    assert 0.0 <= k.probability(bid, wild) <= 1.0
    if is_impossible(bid, known, total, wild):
        assert k.probability(bid, wild) == 0.0

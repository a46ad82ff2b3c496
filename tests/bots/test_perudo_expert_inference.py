"""Opponent inference by virtual dice: the source's example and its invariants."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.perudo.expert.inference import InferredHands, infer_round, sample_rounds
from bots.perudo.expert.model import Knowledge
from bots.perudo.expert.view import TableView
from server.games.perudo_actions import ACE, Bid
from tests.bots.perudo_views import table_views


class Scripted(random.Random):
    """A random stream that returns the given values of ``random()`` in order and
    picks the given indices for ``choice``."""

    def __init__(self, values: Sequence[float], picks: Sequence[int] = ()) -> None:
        super().__init__(0)
        self.values = list(values)
        self.picks = list(picks)

    def random(self) -> float:
        return self.values.pop(0)

    def choice(self, seq: Sequence[Any]) -> Any:  # type: ignore[override]
        return seq[self.picks.pop(0)]


def test_weight_is_one_minus_probability() -> None:
    hands = InferredHands()
    # P = 0.3: weight 0.7; virtual dice at 0.1, 0.69 come up, 0.71 and 0.9 do not.
    step = hands.infer(2, Bid(11, 6), 4, 0.3, Scripted([0.1, 0.69, 0.71, 0.9]), aces_wild=True)
    assert step.weight == pytest.approx(0.7)
    assert step.rolled == 2 and step.added == 2
    assert hands.hand(2) == [6, 6]


def test_a_sure_bid_teaches_nothing_and_an_impossible_one_everything() -> None:
    hands = InferredHands()
    hands.infer(1, Bid(1, 2), 4, 1.0, random.Random(1), aces_wild=True)
    assert hands.hand(1) == []
    hands.infer(1, Bid(11, 6), 4, 0.0, random.Random(1), aces_wild=True)
    assert hands.hand(1) == [6, 6, 6, 6]


def test_source_conflict_example_two_twos_then_three_sixes() -> None:
    # A holds 4 dice, bids 5x2: two 2s inferred; then 7x6: three 6s rolled, only two fit.
    # The source corrects [2, 2, 6, 6, 6] to [2, L, 6, 6] or [2, 2, 6, 6].
    for coin, expected in ((0.4, [2, 1, 6, 6]), (0.6, [2, 2, 6, 6])):
        hands = InferredHands()
        hands.infer(0, Bid(5, 2), 4, 0.5, Scripted([0.1, 0.2, 0.9, 0.9]), aces_wild=True)
        assert hands.hand(0) == [2, 2]
        step = hands.infer(
            0, Bid(7, 6), 4, 0.2, Scripted([0.1, 0.1, 0.1, 0.9, coin], [1]), aces_wild=True
        )
        assert step.rolled == 3 and step.added == 2
        assert step.ace == (coin < 0.5)
        assert sorted(hands.hand(0)) == sorted(expected)


def test_no_ace_conversion_in_palifico_or_on_ace_bids() -> None:
    hands = InferredHands()
    hands.infer(0, Bid(2, 3), 2, 0.0, random.Random(0), aces_wild=False)
    hands.infer(0, Bid(3, 5), 2, 0.0, Scripted([0.0, 0.0, 0.0]), aces_wild=False)
    assert hands.hand(0) == [3, 3]
    hands.infer(0, Bid(3, 1), 2, 0.0, Scripted([0.0, 0.0, 0.0]), aces_wild=True)
    assert hands.hand(0) == [3, 3]


def test_trust_scales_the_weight() -> None:
    hands = InferredHands()
    step = hands.infer(0, Bid(5, 4), 5, 0.2, random.Random(0), aces_wild=True, trust=0.5)
    assert step.weight == pytest.approx(0.4)
    step = hands.infer(1, Bid(5, 4), 5, 0.2, random.Random(0), aces_wild=True, trust=0.0)
    assert step.weight == 0.0 and step.added == 0


def test_the_observer_never_infers_its_own_bids() -> None:
    view = TableView.build(0, [2, 3, 4, 5, 6], [5, 5], [(0, "9x6"), (1, "10x6")])
    hands = infer_round(view, random.Random(3))
    assert 0 not in hands.hands
    assert [s.bidder for s in hands.steps] == [1]


def test_replay_is_reproducible_and_consistent_across_decisions() -> None:
    bids: list[tuple[int, str]] = [(1, "3x4"), (2, "5x4"), (3, "6x5"), (0, "7x5"), (1, "8x5")]
    early = TableView.build(0, [5, 5, 1, 2, 3], [5, 5, 5, 5], bids[:3])
    late = TableView.build(0, [5, 5, 1, 2, 3], [5, 5, 5, 5], bids)
    a = sample_rounds(early, 42, 4)
    b = sample_rounds(late, 42, 4)
    assert sample_rounds(early, 42, 4) == a
    for x, y in zip(a, b, strict=True):
        # The bids seen at the earlier decision were inferred the same way.
        assert x.steps == y.steps[: len(x.steps)]
    assert sample_rounds(early, 42, 0) == [InferredHands()]


@settings(max_examples=300, deadline=None)
@given(view=table_views(), seed=st.integers(0, 2**32), trust=st.floats(0.0, 1.0))
def test_inferred_dice_never_exceed_the_opponents_counts(
    view: TableView, seed: int, trust: float
) -> None:
    for hands in sample_rounds(view, seed, 3, default_trust=trust):
        assert view.seat not in hands.hands
        for seat, hand in hands.hands.items():
            assert len(hand) <= view.counts[seat]
            assert all(1 <= d <= 6 for d in hand)
            # Conflicts turn at most one die per hand into an ace.
            ace_bids = any(b.is_aces for s, b in view.bids if s == seat)
            if not ace_bids:
                assert hand.count(ACE) <= 1
        # The inferred dice are a possible table: they fit with our own.
        Knowledge(list(view.dice) + hands.dice(), view.total)
        for step in hands.steps:
            assert 0.0 <= step.probability <= 1.0
            assert step.weight == pytest.approx(max(0.0, min(1.0, (1 - step.probability) * trust)))
            assert 0 <= step.added <= step.rolled <= view.counts[step.bidder]

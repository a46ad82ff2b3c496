"""Issue 18, point 1: no level ever makes a move its own dice prove wrong.

"Certainly" is from the seat's view: whatever the dice it cannot see show (any faces, in
the counts it knows), the move loses. A bid is certainly false when it names more dice
than its own matching dice plus every die it cannot see; a dudo certainly loses when its
own dice alone make the bid true; a calza certainly loses when its own dice already
exceed the quantity, or the bid cannot be true. Inferred dice never make a certainty.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.perudo.expert import advise
from bots.perudo.expert.view import TableView
from server.games.perudo_actions import Bid
from tests.bots.perudo_views import certainly_loses, situations

LEVELS = ("easy", "normal", "hard")


@settings(max_examples=400, deadline=None)
@given(view=situations(), seed=st.integers(0, 2**32))
def test_no_level_plays_a_move_its_own_dice_prove_wrong(view: TableView, seed: int) -> None:
    legal = view.legal_actions()
    if all(certainly_loses(view, a) for a in legal):
        return  # every move loses: any is as good
    for level in LEVELS:
        for salt in range(4):
            action = advise(view, level=level, seed=seed + salt).action
            assert action in legal
            assert not certainly_loses(view, action), (level, action, view)


def test_two_dice_on_the_table_no_level_outbids_them() -> None:
    """The issue's case: heads-up, one die each; the expert bid 3x1 instead of dudo."""
    for die in range(1, 7):
        for bid in ("1x2", "1x6", "2x4", "2x6", "1x1"):
            for seat in (0, 1):
                view = TableView.build(seat, [die], [1, 1], [(1 - seat, bid)], dice_per_player=5)
                for level in LEVELS:
                    for seed in range(24):
                        action = advise(view, level=level, seed=seed).action
                        assert action == "dudo" or Bid.parse(action).quantity <= 2, (
                            level,
                            die,
                            bid,
                        )


def test_every_one_bid_heads_up_position_with_few_dice() -> None:
    """Exhaustively: heads-up, one or two dice each, every hand, every bid to answer
    (up to one more than the dice on the table), every level, a few seeds."""
    from itertools import combinations_with_replacement

    from server.games.perudo_actions import BIDS

    for mine, theirs in ((1, 1), (1, 2), (2, 1)):
        total = mine + theirs
        for dice in combinations_with_replacement(range(1, 7), mine):
            for q in range(1, total + 2):
                for face in range(1, 7):
                    view = TableView.build(0, dice, [mine, theirs], [(1, BIDS[q][face])])
                    legal = view.legal_actions()
                    if all(certainly_loses(view, a) for a in legal):
                        continue
                    for level in LEVELS:
                        for seed in range(3):
                            action = advise(view, level=level, seed=seed).action
                            assert not certainly_loses(view, action), (level, dice, q, face)

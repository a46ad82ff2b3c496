"""The search's rollouts: perudo-simple's policy, computed per face, and the round's end.

The rollout policy must be perudo-simple exactly (the search models the other seats, and
its own later turns, with it): on random situations, every rule set and palifico, it
answers what :class:`bots.baseline.PerudoSimple` answers.
"""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from bots.baseline import PerudoSimple
from bots.perudo.expert.view import TableView
from bots.perudo.search.rollout import (
    Deal,
    Result,
    Rules,
    dice_share,
    play_out,
    resolve,
    simple_action,
)
from bots.perudo.search.worlds import rules_of
from bots.perudo.table import PerudoTable
from bots.sdk.bot import Decision
from server.games.perudo_actions import Bid


@st.composite
def deals(draw: st.DrawFn) -> tuple[TableView, Deal]:
    """A round in progress with every die known, and the mover's view of it."""
    seats = draw(st.integers(2, 5))
    per = draw(st.sampled_from([1, 2, 3, 5]))
    counts = [draw(st.integers(0, per)) for _ in range(seats)]
    seat = draw(st.integers(0, seats - 1))
    counts[seat] = max(1, counts[seat])
    if sum(1 for c in counts if c) < 2:
        counts[(seat + 1) % seats] = 1
    hands = tuple(tuple(draw(st.lists(st.integers(1, 6), min_size=c, max_size=c))) for c in counts)
    active = [s for s in range(seats) if counts[s]]
    palifico = draw(st.sampled_from([None, *active])) if len(active) > 2 else None
    aces = draw(st.sampled_from(["ordinary", "wild_conversion"]))
    kw = {"palifico": palifico, "dice_per_player": per, "palifico_aces": aces}
    view = TableView.build(seat, hands[seat], counts, **kw)  # type: ignore[arg-type]
    for _ in range(draw(st.integers(0, 4))):
        legal = view.legal_bids()
        if not legal:
            break
        bid = legal[draw(st.integers(0, min(len(legal) - 1, 25)))]
        bidder = draw(st.sampled_from([s for s in active if s != seat]))
        view = TableView.build(seat, hands[seat], counts, [*view.bids, (bidder, bid)], **kw)  # type: ignore[arg-type]
    return view, Deal(hands, seat, view.last, palifico, rules_of(view))


def simple_answer(view: TableView) -> str:
    """What :class:`PerudoSimple` plays in ``view``."""
    bot = PerudoSimple()
    bot.table = PerudoTable(
        seat=view.seat,
        seats=len(view.counts),
        dice_per_player=view.dice_per_player,
        counts=list(view.counts),
        dice=list(view.dice),
        bids=list(view.bids),
        palifico=view.palifico,
        aces_wild=view.aces_wild,
    )
    return asyncio.run(bot.decide(Decision(view.seat, {}, view.legal_actions())))


@settings(max_examples=300, deadline=None)
@given(case=deals())
def test_the_rollout_policy_is_perudo_simple(case: tuple[TableView, Deal]) -> None:
    view, deal = case
    if not view.legal_actions():
        return
    assert simple_action(deal.hands[view.seat], deal, view.seat) == simple_answer(view)


@settings(max_examples=200, deadline=None)
@given(case=deals())
def test_a_round_played_out_ends_with_a_challenge(case: tuple[TableView, Deal]) -> None:
    view, deal = case
    legal = view.legal_actions()
    if not legal:
        return
    first = legal[0]
    result = play_out(deal, first)
    assert deal.hands[result.seat], "only a seat with dice loses or gains one"
    assert result.change in (-1, 0, 1)
    assert result.bids >= (0 if first in ("dudo", "calza") else 1)


def test_dudo_and_calza_resolve_by_the_rules() -> None:
    rules = Rules(cap=6, dice_per_player=3, calza=True)
    hands = ((2, 2, 1), (5, 2, 6))
    bid = (1, Bid.parse("4x2"))  # four 2s with aces: true (2, 2, ace, 2)
    deal = Deal(hands, 0, bid, None, rules)
    assert resolve(deal, 0, "dudo") == Result(0, -1, 0)  # the caller was wrong
    assert resolve(deal, 0, "calza") == Result(0, 0, 0)  # exact, but already at 3 dice
    palifico = Deal(hands, 0, bid, 1, rules)  # aces not wild: three 2s, the bid is false
    assert resolve(palifico, 0, "dudo") == Result(1, -1, 0)


def test_the_value_is_the_share_of_the_dice() -> None:
    assert dice_share((5, 5), 0, Result(1, -1, 3)) == 5 / 9
    assert dice_share((1, 1), 0, Result(1, -1, 1)) == 1.0
    assert dice_share((1, 3, 2), 0, Result(0, -1, 1)) == 0.0

"""Sample the dice a seat cannot see, consistently with what it knows.

A *world* is one complete deal of the round (a :class:`~bots.perudo.search.rollout.Deal`):
the seat's own dice as they are, every other seat's dice drawn in the counts the seat
knows. What the opponents' bids say is used as a probability, never as a certainty:

1. a proposal: with probability :data:`~bots.perudo.expert.context.INFERENCE_DOUBT` every
   unseen die is uniform; otherwise the round's bids are replayed through the expert's
   inference (:func:`bots.perudo.expert.inference.infer_round`, with a trust of
   :data:`TRUST` in the bids), which keeps the dice it inferred for each opponent
   and draws the rest uniformly;
2. a reweighting (sampling-importance-resampling): of :data:`PROPOSALS` proposals one is
   kept with probability proportional to how likely each bidder found its own bids
   (``P(bid true | the bidder's dice)`` for each of its bids this round, to the power
   :data:`SHARPNESS`): players tend to bid what their own dice make likely.

Both steps are random, so every deal the seat's own dice allow keeps a chance.
"""

from __future__ import annotations

import random

from bots.perudo.expert.context import INFERENCE_DOUBT
from bots.perudo.expert.inference import InferredHands, infer_round
from bots.perudo.expert.model import exact_probability
from bots.perudo.expert.view import TableView
from bots.perudo.search.rollout import Deal, Rules

#: How far an opponent's bid is believed: 40% of the source's 1 - P weight (what the
#: expert's hard level used for its virtual dice before it read bids by likelihood).
TRUST = 0.4
#: Proposals per world in the resampling step (1: no reweighting).
PROPOSALS = 8
#: The power of each bid's likelihood in the reweighting.
SHARPNESS = 2.0

#: The least likelihood a bid is given (no hand is ever ruled out).
FLOOR = 0.02

_MASK = (1 << 64) - 1


def rules_of(view: TableView) -> Rules:
    """The room's rules as the rollouts need them."""
    return Rules(view.cap, view.dice_per_player, view.calza, view.palifico_aces)


def world_rng(seed: int, index: int) -> random.Random:
    """The random stream of world ``index`` of a decision seeded ``seed``."""
    return random.Random(((seed & _MASK) << 20) ^ index)


def propose(
    view: TableView, rng: random.Random, *, doubt: float = INFERENCE_DOUBT, trust: float = TRUST
) -> tuple[tuple[int, ...], ...]:
    """Every seat's dice: ``view.seat``'s own, the others' drawn through the inference
    (or, with probability ``doubt``, uniformly)."""
    inferred = InferredHands() if rng.random() < doubt else infer_round(view, rng, None, trust)
    hands: list[tuple[int, ...]] = []
    for seat, count in enumerate(view.counts):
        if seat == view.seat:
            hands.append(tuple(view.dice))
            continue
        known = inferred.hand(seat)[:count]
        rest = [int(rng.random() * 6) + 1 for _ in range(count - len(known))]
        hands.append(tuple(known + rest))
    return tuple(hands)


def likelihood(view: TableView, hands: tuple[tuple[int, ...], ...], sharpness: float) -> float:
    """How well ``hands`` explain the opponents' bids this round, each bidder taken as
    bidding the boldest quantity its own dice make at least ``tau`` likely, ``tau`` unknown
    and uniform: it bids ``q`` with probability ``P(q true) - P(q + 1 true)`` from its own
    dice (the chance of exactly ``q`` matching dice), floored at :data:`FLOOR`; the
    product over its bids, to the power ``sharpness``."""
    weight = 1.0
    total = view.total
    wild = view.aces_wild
    for bidder, bid in view.bids:
        if bidder != view.seat:
            hand = hands[bidder]
            chance = exact_probability(bid, hand, total, wild)
            weight *= max(FLOOR, chance)
    return float(weight**sharpness)


def sample_deal(view: TableView, rng: random.Random, *, proposals: int = PROPOSALS) -> Deal:
    """One world for ``view.seat``'s decision, drawn from ``rng``."""
    options = [propose(view, rng) for _ in range(max(1, proposals))]
    if len(options) > 1:
        weights = [likelihood(view, h, SHARPNESS) for h in options]
        if sum(weights) > 0:
            options = rng.choices(options, weights)
    return Deal(options[0], view.seat, view.last, view.palifico, rules_of(view))

"""Sample the dice a seat cannot see, consistently with what it knows.

A *world* is one complete deal of the round (a :class:`~bots.perudo_search.rollout.Deal`):
the seat's own dice as they are, every other seat's dice drawn in the counts the seat
knows. What the opponents' bids say is used as a probability, never as a certainty:
with probability :data:`~bots.perudo_expert.context.INFERENCE_DOUBT` a world ignores the
bids (every unseen die uniform), otherwise it replays the round's bids through the
expert's inference (:func:`bots.perudo_expert.inference.infer_round`, with hard's trust in
the bids), keeps the dice it inferred for each opponent and draws the rest uniformly.
The inference's virtual dice are themselves random, so every deal the seat's own dice
allow has a chance in every world's law.
"""

from __future__ import annotations

import random

from bots.perudo_expert.context import INFERENCE_DOUBT
from bots.perudo_expert.inference import InferredHands, infer_round
from bots.perudo_expert.levels import LEVELS
from bots.perudo_expert.view import TableView
from bots.perudo_search.rollout import Deal, Rules

#: How far an opponent's bid is believed (hard's: 40% of the source's 1 - P weight).
TRUST = LEVELS["hard"].trust

_MASK = (1 << 64) - 1


def rules_of(view: TableView) -> Rules:
    """The room's rules as the rollouts need them."""
    return Rules(view.cap, view.dice_per_player, view.calza, view.palifico_aces)


def world_rng(seed: int, index: int) -> random.Random:
    """The random stream of world ``index`` of a decision seeded ``seed``."""
    return random.Random(((seed & _MASK) << 20) ^ index)


def sample_deal(
    view: TableView,
    rng: random.Random,
    *,
    doubt: float = INFERENCE_DOUBT,
    trust: float = TRUST,
) -> Deal:
    """One world for ``view.seat``'s decision: its own dice, the others' drawn from
    ``rng`` (through the bids' inference except with probability ``doubt``)."""
    inferred = InferredHands() if rng.random() < doubt else infer_round(view, rng, None, trust)
    hands: list[tuple[int, ...]] = []
    for seat, count in enumerate(view.counts):
        if seat == view.seat:
            hands.append(tuple(view.dice))
            continue
        known = inferred.hand(seat)[:count]
        rest = [int(rng.random() * 6) + 1 for _ in range(count - len(known))]
        hands.append(tuple(known + rest))
    return Deal(tuple(hands), view.seat, view.last, view.palifico, rules_of(view))

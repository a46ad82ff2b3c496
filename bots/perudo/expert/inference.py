"""Opponent inference by virtual dice, as the source's predictive model does it.

After each opponent bid the observer:

1. computes the bid's probability ``P`` from what it knows at that moment (its own dice
   and the dice already inferred this round, for every opponent);
2. rolls as many *loaded* virtual dice as the bidder holds, the bid's face weighted
   ``1 - P`` (a risky bid is informative, a safe one is not);
3. infers that the bidder holds one die of that face for each virtual die showing it.

Inferred dice never exceed the bidder's count. When a roll would overflow the bidder's
hand and aces are wild, one inferred die of another face may turn into an ace (the
source's "Testa di Lama" conflict rule: ``[2, 2] + [6, 6, 6]`` in four dice becomes
``[2, L, 6, 6]`` or ``[2, 2, 6, 6]``), never more than one ace per hand, so aces do not
proliferate.

``trust`` scales the weight by what the observer knows of the bidder: a player who is
known to bluff often tells less with a risky bid (the source computes ``P`` "from the
opponent's profile" too). With trust 1 the weight is exactly ``1 - P``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from bots.perudo.expert.model import Knowledge
from bots.perudo.expert.view import TableView
from server.games.perudo_actions import ACE, Bid


@dataclass(frozen=True, slots=True)
class Inference:
    """One inference step: what a bid taught the observer about its bidder."""

    bidder: int
    bid: Bid
    probability: float  #: P(bid) from the observer's point of view at that moment
    weight: float  #: the loaded face's weight on each virtual die
    rolled: int  #: virtual dice showing the bid's face
    added: int  #: dice actually added to the bidder's inferred hand
    ace: bool  #: one inferred die turned into an ace on a conflict


@dataclass(slots=True)
class InferredHands:
    """The dice inferred for each opponent during one round."""

    hands: dict[int, list[int]] = field(default_factory=dict)
    steps: list[Inference] = field(default_factory=list)

    def dice(self) -> list[int]:
        """Every inferred die, all opponents together."""
        return [d for hand in self.hands.values() for d in hand]

    def hand(self, seat: int) -> list[int]:
        """The dice inferred for ``seat`` (empty if none)."""
        return list(self.hands.get(seat, ()))

    def infer(
        self,
        bidder: int,
        bid: Bid,
        held: int,
        probability: float,
        rng: random.Random,
        *,
        aces_wild: bool,
        trust: float = 1.0,
    ) -> Inference:
        """Roll ``held`` virtual dice for ``bidder``'s ``bid`` and record what comes up."""
        if held < 0:
            raise ValueError(f"seat {bidder} cannot hold {held} dice")
        weight = max(0.0, min(1.0, (1.0 - probability) * trust))
        rolled = sum(1 for _ in range(held) if rng.random() < weight)
        hand = self.hands.setdefault(bidder, [])
        added = max(0, min(rolled, held - len(hand)))
        hand.extend([bid.face] * added)
        ace = False
        if rolled > added and aces_wild and not bid.is_aces and ACE not in hand:
            others = [i for i, d in enumerate(hand) if d not in (bid.face, ACE)]
            if others and rng.random() < 0.5:
                hand[rng.choice(others)] = ACE
                ace = True
        step = Inference(bidder, bid, probability, weight, rolled, added, ace)
        self.steps.append(step)
        return step


def infer_round(
    view: TableView,
    rng: random.Random,
    trust: Mapping[int, float] | None = None,
    default_trust: float = 1.0,
) -> InferredHands:
    """Replay this round's bids in order and infer every opponent's dice.

    The observer is ``view.seat``; its own bids teach it nothing. Replaying with the same
    random stream gives the same hands, so a bot may recompute them at every decision.
    """
    hands = InferredHands()
    own = list(view.dice)
    trust = trust or {}
    for bidder, bid in view.bids:
        if bidder == view.seat or view.counts[bidder] <= 0:
            continue
        known = Knowledge(own + hands.dice(), view.total)
        p = known.probability(bid, view.aces_wild)
        hands.infer(
            bidder,
            bid,
            view.counts[bidder],
            p,
            rng,
            aces_wild=view.aces_wild,
            trust=trust.get(bidder, default_trust),
        )
    return hands


def sample_rounds(
    view: TableView,
    seed: int,
    samples: int,
    trust: Mapping[int, float] | None = None,
    default_trust: float = 1.0,
) -> list[InferredHands]:
    """``samples`` independent inferences of the round (none when ``samples`` is 0).

    Sample ``k`` draws from its own stream (``seed`` and ``k``), so replaying the round
    at a later decision gives the same inferences for the bids already seen. The source
    rolls the virtual dice once; averaging several rolls (the hard level) keeps the same
    model but removes most of its noise.
    """
    if samples <= 0:
        return [InferredHands()]
    return [
        infer_round(view, random.Random(f"{seed}/infer/{k}"), trust, default_trust)
        for k in range(samples)
    ]

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

from bots.perudo.expert.model import Knowledge, prob_exactly
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


def _step_outcomes(
    hand: tuple[int, ...], bid: Bid, held: int, weight: float, aces_wild: bool
) -> list[tuple[tuple[int, ...], float]]:
    """Every hand :meth:`InferredHands.infer` may leave from ``hand`` (sorted) after
    ``bid``, with its chance: the virtual dice showing the face are binomial, then the
    conflict rule may turn one die of another face (uniformly) into an ace."""
    out: list[tuple[tuple[int, ...], float]] = []
    for rolled in range(held + 1):
        p_rolled = prob_exactly(rolled, held, weight)
        if p_rolled <= 0.0:
            continue
        added = max(0, min(rolled, held - len(hand)))
        grown = list(hand) + [bid.face] * added
        others = [d for d in grown if d not in (bid.face, ACE)]
        if rolled > added and aces_wild and not bid.is_aces and ACE not in grown and others:
            out.append((tuple(sorted(grown)), p_rolled * 0.5))
            for face in set(others):
                turned = list(grown)
                turned.remove(face)
                share = others.count(face) / len(others)
                out.append((tuple(sorted([*turned, ACE])), p_rolled * 0.5 * share))
        else:
            out.append((tuple(sorted(grown)), p_rolled))
    return out


#: :func:`round_distribution` drops its least likely outcomes up to this much chance in
#: all (so every probability it gives is within about twice that of the exact one) ...
DROPPED = 0.002
#: ... and keeps at most this many outcomes after each bid (a long round of many seats
#: would have millions).
MOST_OUTCOMES = 2000


def round_distribution(
    view: TableView,
    trust: Mapping[int, float] | None = None,
    default_trust: float = 1.0,
    *,
    dropped: float = DROPPED,
    most: int = MOST_OUTCOMES,
) -> list[tuple[InferredHands, float]]:
    """Every outcome of :func:`infer_round` with its chance (the virtual rolls summed
    over, not sampled): the inference's model itself, whose averages are the
    probabilities a hint states (issue 33: one sampled roll made a calza 87% that the
    model gives 15%). Outcomes leaving the same hands are merged; likeliest first.

    After each bid the least likely outcomes are dropped, ``dropped`` chance in all over
    the round, and at most ``most`` kept (``dropped=0, most=0``: exact, for tests); the
    rest are scaled back to a total of 1."""
    own = list(view.dice)
    trust = trust or {}
    seats = sorted({b for b, _ in view.bids if b != view.seat and view.counts[b] > 0})
    states: dict[tuple[tuple[int, ...], ...], float] = {tuple(() for _ in seats): 1.0}
    steps = [(b, bid) for b, bid in view.bids if b != view.seat and view.counts[b] > 0]
    per_step = dropped / max(1, len(steps))
    for bidder, bid in steps:
        i = seats.index(bidder)
        held = view.counts[bidder]
        nxt: dict[tuple[tuple[int, ...], ...], float] = {}
        for state, p_state in states.items():
            known = Knowledge(own + [d for hand in state for d in hand], view.total)
            p = known.probability(bid, view.aces_wild)
            weight = max(0.0, min(1.0, (1.0 - p) * trust.get(bidder, default_trust)))
            for hand, p_hand in _step_outcomes(state[i], bid, held, weight, view.aces_wild):
                key = (*state[:i], hand, *state[i + 1 :])
                nxt[key] = nxt.get(key, 0.0) + p_state * p_hand
        states = _prune(nxt, per_step, most)
    out = [
        (InferredHands({s: list(h) for s, h in zip(seats, state, strict=True) if h}), p)
        for state, p in states.items()
        if p > 0.0
    ]
    out.sort(key=lambda hp: -hp[1])
    return out


def _prune(
    states: dict[tuple[tuple[int, ...], ...], float], dropped: float, most: int
) -> dict[tuple[tuple[int, ...], ...], float]:
    """``states`` without their least likely ones (up to ``dropped`` chance, at most
    ``most`` kept; 0: no limit), scaled back to a total of 1."""
    if dropped <= 0 and (most <= 0 or len(states) <= most):
        return states
    ranked = sorted(states.items(), key=lambda kv: -kv[1])
    total = sum(p for _, p in ranked)
    kept: list[tuple[tuple[tuple[int, ...], ...], float]] = []
    covered = 0.0
    for key, p in ranked:
        if (most > 0 and len(kept) >= most) or (kept and covered >= total - dropped):
            break
        kept.append((key, p))
        covered += p
    return {key: p / covered for key, p in kept}

"""The working memory of the production system: the facts rules read and assert.

A :class:`Context` is made for one decision; the rules of :mod:`bots.perudo.expert.rules`
fire on it in salience order, each reading facts and asserting new ones (the situation,
the thresholds, the dudo probability, candidate bets, scored possible bets, the action).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from bots.perudo.expert.inference import InferredHands
from bots.perudo.expert.levels import Level
from bots.perudo.expert.model import Knowledge, bluff_share
from bots.perudo.expert.profiles import OpponentProfile
from bots.perudo.expert.reading import Reading
from bots.perudo.expert.view import TableView
from server.games.perudo_actions import Bid

#: Inferred dice are a belief, never a certainty: every probability is blended with this
#: share of the uninformed one (own dice known, every other die unseen), so an inferred
#: die can never turn a possible bid into a certainly true or certainly false one.
INFERENCE_DOUBT = 0.15

LAST_BET = "last_bet"
FINAL_BLOW = "final_blow"
NORMAL = "normal"


@dataclass(frozen=True, slots=True)
class Bet:
    """The source's ``(bet (face Y) (times X) (probability P) (bluff B))`` fact."""

    bid: Bid
    probability: float
    bluff: float


@dataclass(frozen=True, slots=True)
class PossibleBet:
    """The source's ``(possibleBet (face Y) (times X) (score S))``: near 0 is best."""

    bet: Bet
    score: float


@dataclass(slots=True)
class Context:
    """Facts about one decision, read and asserted by the rules."""

    view: TableView
    level: Level
    rng: random.Random
    hands: list[InferredHands]
    profiles: Mapping[int, OpponentProfile] = field(default_factory=dict)
    user_thresholds: bool = False
    #: the bids read as a posterior over the opponents' dice (hard); when set, it gives
    #: every probability and ``hands`` are not used
    reading: Reading | None = None
    # phase 1: thresholds and situation
    bluff: float = 0.0
    reliability: float = 0.0
    bluff_weight: float = 1.0
    dudo_margin: float = 0.0
    situation: str = NORMAL
    faces: frozenset[int] | None = None  #: when set, bets only on these faces
    # phase 3: the dudo probability
    dudo_probability: float | None = None
    calza_probability: float | None = None
    impossible: bool = False
    # phases 4-6: bets, scores, elimination
    bets: list[Bet] = field(default_factory=list)
    possible: list[PossibleBet] = field(default_factory=list)
    scored: list[PossibleBet] = field(default_factory=list)
    eliminations: int = 0
    # result
    action: str | None = None
    probability: float = 0.0
    halted: bool = False
    fired: list[str] = field(default_factory=list)
    notes: dict[str, float | int | str] = field(default_factory=dict)
    #: the chance of each of ``hands`` (the inference's distribution); ``None``: equal
    weights: list[float] | None = None
    _knowledge: list[tuple[Knowledge, float]] = field(default_factory=list)
    _prior: Knowledge | None = None

    def __post_init__(self) -> None:
        own = list(self.view.dice)
        weights = self.weights or [1.0 / len(self.hands)] * len(self.hands)
        merged: dict[tuple[int, ...], float] = {}
        for h, w in zip(self.hands, weights, strict=True):
            key = tuple(sorted(h.dice()))
            merged[key] = merged.get(key, 0.0) + w
        total = sum(merged.values())
        self._knowledge = [
            (Knowledge(own + list(dice), self.view.total), w / total) for dice, w in merged.items()
        ]
        self._prior = Knowledge(own, self.view.total)

    def _doubt(self) -> float:
        """The prior's share: none when nothing was inferred (the hands are the prior)."""
        inferred = any(h.dice() for h in self.hands)
        return INFERENCE_DOUBT if inferred else 0.0

    def probability_of(self, bid: Bid) -> float:
        """P(bid is true): the reading's, or the inferred hands' average blended with
        the uninformed probability (:data:`INFERENCE_DOUBT`)."""
        if self.reading is not None:
            return self.reading.probability(bid)
        wild = self.view.aces_wild
        assert self._prior is not None
        inferred = sum(w * k.probability(bid, wild) for k, w in self._knowledge)
        doubt = self._doubt()
        return (1 - doubt) * inferred + doubt * self._prior.probability(bid, wild)

    def exact_probability_of(self, bid: Bid) -> float:
        """P(the count is exactly the bid's quantity), as :meth:`probability_of`."""
        if self.reading is not None:
            return self.reading.exact(bid)
        wild = self.view.aces_wild
        assert self._prior is not None
        inferred = sum(w * k.exact(bid, wild) for k, w in self._knowledge)
        doubt = self._doubt()
        return (1 - doubt) * inferred + doubt * self._prior.exact(bid, wild)

    def bet(self, bid: Bid) -> Bet:
        """The ``bet`` fact for ``bid``: its probability and how much of it is a bluff."""
        return Bet(
            bid, self.probability_of(bid), bluff_share(bid, self.view.dice, self.view.aces_wild)
        )

    def halt(self, action: str, probability: float) -> None:
        """Decide ``action`` and stop reasoning."""
        self.action = action
        self.probability = probability
        self.halted = True

    def profile(self, seat: int) -> OpponentProfile | None:
        """What is known of ``seat`` (only when the level uses statistics)."""
        if not self.level.use_stats:
            return None
        return self.profiles.get(seat)
